-- The bucket tables leave half of every new page free, where they left 15 %.
--
-- Adding to a bucket of this hour is an update in place (HOT, docs/adr/0002) only while its page has room
-- for the row's new version next to the old one, which the updating transaction's commit has yet to free.
-- This hour's buckets are inserted side by side as keys first appear in the hour, and one batch adds to
-- hundreds of them: to every account scope key of its events, and to the keys and entities of a fifth of
-- a busy key set. A page filled to 85 % has room for a new version of about one row in six; the others
-- went to other pages, each with a new entry in the primary key and in the archive index. Half free, a
-- page has room for a new version of every row on it.
--
-- Only pages filled from now on are filled to half: existing rows stay where they are, and pages whose
-- rows the archiver deletes are refilled to half.
ALTER TABLE risk_hourly_agg SET (fillfactor = 50);
ALTER TABLE risk_scope_hourly_agg SET (fillfactor = 50);
