#!/bin/bash
# Runs each pgbench script named, on a key set, one client, prepared statements, for the seconds given,
# after a checkpoint, and prints its transactions, the WAL bytes and full-page images per transaction, and
# the average latency of each statement over 0.5 ms. A script is named with its key set: seldom (500 of
# the 200,000 keys seen seldom a transaction) or hourly (167 of the 2,000 keys seen every hour). The server
# is libpq's (PGHOST, PGPORT, PGUSER, PGDATABASE), loaded with history.sql. Alternate the two sides:
#   ./compare.sh 15 read-usage-today@seldom read-usage-chunks-whole@seldom ...
set -euo pipefail
seconds=$1
shift
cd "$(dirname "$0")"
sql() { psql -qAt -F ' ' -v ON_ERROR_STOP=1 -c "$1"; }
for item in "$@"; do
  script=${item%@*}
  case ${item#*@} in
    seldom) keys=(-D first=0 -D last=199499 -D width=499) ;;
    hourly) keys=(-D first=200000 -D last=201833 -D width=166) ;;
    *) echo "$item: name a key set, $script@seldom or $script@hourly" >&2; exit 2 ;;
  esac
  sql "CHECKPOINT" >/dev/null
  read -r wal_before images_before <<<"$(sql "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint, wal_fpi FROM pg_stat_wal")"
  out=$(pgbench -n -M prepared -c 1 -T "$seconds" -r "${keys[@]}" -f "$script.sql")
  read -r wal_after images_after <<<"$(sql "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint, wal_fpi FROM pg_stat_wal")"
  transactions=$(echo "$out" | awk '/number of transactions actually processed/ {split($NF, n, "/"); print n[1]}')
  statements=$(echo "$out" | awk '/statement latencies/ {f = 1; next} f && $1 + 0 > 0.5 {
      line = $0; sub(/^ *[0-9.]+ +[0-9]+ +/, "", line); printf "%s ms %.40s | ", $1, line}')
  echo "$item: $transactions transactions, $(( (wal_after - wal_before) / transactions )) B of WAL and" \
       "$(( (images_after - images_before) / transactions )) full-page images each :: $statements"
done
