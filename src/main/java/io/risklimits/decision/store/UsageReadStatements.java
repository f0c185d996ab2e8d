package io.risklimits.decision.store;

/**
 * The statements of the usage read ({@link RunningUsageRepository}), templates for either bucket table
 * ({@link BucketTable}), which holds a scope key's hourly buckets in chunks of up to 24 (V13).
 */
final class UsageReadStatements {

    // The newest chunk of each key whose window starts are remembered, or not needed: one backward probe
    // of its chunks by the primary key. Its last bucket is the key's latest.
    static final String SELECT_LATEST = """
            SELECT {key.columns},
                   latest.hours[cardinality(latest.hours)] AS latest_hour, latest.running_amount AS latest_running_amount,
                   latest.running_count AS latest_running_count, latest.ctid AS latest_row_id,
                   latest.rewrites AS latest_rewrites, cardinality(latest.hours) AS latest_chunk_buckets
            FROM unnest({arrays}) AS key ({columns})
            LEFT JOIN LATERAL (SELECT ctid, hours, running_amount, running_count, rewrites
                               FROM {table} chunk
                               WHERE {chunk.key} = {key.key}
                               ORDER BY chunk.first_ts DESC
                               LIMIT 1) AS latest ON true
            """;

    // The chunks of each key whose window starts are not remembered, from the one that holds its earliest
    // window start (:earliestStart; its newest chunk that begins at or before it) on, in hour order: the
    // service picks each window's start from their buckets (KeyChunks), and the newest is the key's latest.
    // A key seen seldom has its month in one or two chunks; a key seen every hour one a day. A key without
    // chunks comes back as one row without a chunk. Rows come back in the keys' order (position).
    static final String SELECT_CHUNKS = """
            SELECT {key.columns}, key.position,
                   chunk.ctid AS row_id, chunk.hours, chunk.sums, chunk.counts, chunk.amount_before,
                   chunk.count_before, chunk.running_amount, chunk.running_count, chunk.rewrites
            FROM unnest({arrays}) WITH ORDINALITY AS key ({columns}, position)
            LEFT JOIN LATERAL (
                SELECT ctid, first_ts, hours, sums, counts, amount_before, count_before, running_amount,
                       running_count, rewrites
                FROM {table} chunk
                WHERE {chunk.key} = {key.key}
                  AND chunk.first_ts >= coalesce((SELECT max(holding.first_ts)
                                                  FROM {table} holding
                                                  WHERE {holding.key} = {key.key}
                                                    AND holding.first_ts <= CAST(:earliestStart AS timestamp)),
                                                 CAST('-infinity' AS timestamp))) AS chunk ON true
            ORDER BY key.position, chunk.first_ts
            """;

    private UsageReadStatements() {}
}
