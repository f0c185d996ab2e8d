#!/bin/bash
# Checks that V13's views show what the tables showed: two new databases on libpq's server (PGHOST, PGPORT,
# PGUSER), both migrated to V12 and given the same buckets (views-seed.sql); one then migrated to V13. The
# buckets with their running totals must be the same in both, after the migration and again after the same
# operators' writes (views-writes.sql: inserts before, between and after a key's buckets, updates, a delete).
# rewrites is left out: V13 counts it per chunk.
set -euo pipefail
cd "$(dirname "$0")"
migrations=../../../src/main/resources/db/migration
sql() { psql -qAt -v ON_ERROR_STOP=1 -d "$1" "${@:2}"; }
keys="SELECT entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count, key_hash, running_amount,
             running_count, amount_before, count_before FROM risk_hourly_agg ORDER BY 1, 2, 3, 4"
scopes="SELECT scope, owner_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count, key_hash,
               running_amount, running_count, amount_before, count_before FROM risk_scope_hourly_agg ORDER BY 1, 2, 3, 4, 5"
for db in tables views; do
  psql -qAt -d postgres -c "DROP DATABASE IF EXISTS v13_$db" -c "CREATE DATABASE v13_$db" 2>/dev/null
  for file in $(ls "$migrations" | sort -t_ -k1.2n | grep -v '^V13__'); do sql "v13_$db" -f "$migrations/$file" >/dev/null; done
  sql "v13_$db" -f views-seed.sql
done
sql v13_views -f "$migrations/V13__buckets_in_chunks.sql" >/dev/null
same() {
  diff <(sql v13_tables -c "$keys"; sql v13_tables -c "$scopes") <(sql v13_views -c "$keys"; sql v13_views -c "$scopes") \
    >/dev/null && echo "$1: the same buckets and totals" || { echo "$1: they differ"; exit 1; }
}
same "after the migration"
for db in tables views; do sql "v13_$db" -f views-writes.sql; done
same "after the same writes"
