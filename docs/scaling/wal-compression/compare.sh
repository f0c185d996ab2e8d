#!/bin/bash
# Runs first-sights.sql once per wal_compression value named (off, pglz, lz4, zstd: those the server was
# built with), each after a checkpoint, 300 transactions of 500 first sights each, one client, prepared
# statements; prints the WAL bytes and full-page images per transaction and the average latency of the
# insert and of the commit; then deletes the run's buckets, so that every run finds the same history.
# The server is libpq's (PGHOST, PGPORT, PGUSER, PGDATABASE, a superuser), loaded with
# ../../adr/0006-buckets-in-chunks/history.sql, fsync on. Alternate the values:
#   ./compare.sh off pglz pglz off off pglz
set -euo pipefail
cd "$(dirname "$0")"
transactions=300
sql() { psql -qAt -F ' ' -v ON_ERROR_STOP=1 -c "$1"; }
PGOPTIONS="-c client_min_messages=warning" sql "CREATE SEQUENCE IF NOT EXISTS first_sight_block MINVALUE 0"
for compression in "$@"; do
  sql "DELETE FROM t_hourly WHERE bucket_ts = '2026-12-07 14:00'"
  sql "VACUUM t_hourly"
  sql "SELECT setval('first_sight_block', 0, false)" >/dev/null
  sql "CHECKPOINT"
  read -r wal_before images_before <<<"$(sql "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint, wal_fpi FROM pg_stat_wal")"
  out=$(PGOPTIONS="-c wal_compression=$compression" pgbench -n -M prepared -c 1 -t "$transactions" -r -f first-sights.sql)
  read -r wal_after images_after <<<"$(sql "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint, wal_fpi FROM pg_stat_wal")"
  latencies=$(echo "$out" | awk '/statement latencies/ {f = 1; next} f && /INSERT/ {i = $1} f && /COMMIT/ {c = $1}
      END {printf "insert %s ms, commit %s ms", i, c}')
  echo "wal_compression=$compression: $(( (wal_after - wal_before) / transactions )) B of WAL and" \
       "$(( (images_after - images_before) / transactions )) full-page images a transaction; $latencies"
done
sql "DELETE FROM t_hourly WHERE bucket_ts = '2026-12-07 14:00'"
