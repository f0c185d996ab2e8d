package io.risklimits.decision.store;

import static io.risklimits.decision.store.SqlTime.instantFromUtcTimestamp;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import io.risklimits.decision.Direction;
import io.risklimits.decision.ReversalPolicy;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.Verdict;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.springframework.stereotype.Repository;

/**
 * Reads what risk_request_log holds for a batch, under its keys' locks: the decisions stored already
 * for its events (the answers to redeliveries) and the originals its reversals name.
 */
@Repository
class RequestLogReader {

    private static final String SELECT_DECISIONS = "SELECT " + RequestLogRow.COLUMNS + """
            FROM risk_request_log
            WHERE (entity_id, channel_code, direction_code, dedupe_id) IN (
                SELECT * FROM unnest(CAST(:entityIds AS uuid[]), CAST(:channels AS text[]),
                                     CAST(:directions AS text[]), CAST(:dedupeIds AS uuid[])))
            """;

    // Each reversal's original as it stands under the key's lock: its type, decision and amount, and
    // the sum its RELEASED reversals gave back (risk_request_log_releases_idx). A missing row is an
    // original that is unknown under the key, or past retention. The row found stays locked until the
    // commit, so the archiver, which deletes a window's audit rows before its buckets, cannot delete
    // the original's hour before its release is written; a row the archiver is deleting is skipped
    // (past retention) rather than waited for.
    private static final String SELECT_ORIGINALS = """
            SELECT original.entity_id, original.channel_code, original.direction_code, original.dedupe_id,
                   original.type, original.decision, original.amount,
                   coalesce((SELECT sum(reversal.released_amount)
                             FROM risk_request_log reversal
                             WHERE reversal.entity_id = original.entity_id
                               AND reversal.channel_code = original.channel_code
                               AND reversal.direction_code = original.direction_code
                               AND reversal.reverses = original.dedupe_id
                               AND reversal.decision = 'RELEASED'), 0) AS released,
                   original.bucket_ts, original.account_id
            FROM risk_request_log original
            WHERE (original.entity_id, original.channel_code, original.direction_code, original.dedupe_id) IN (
                SELECT * FROM unnest(CAST(:entityIds AS uuid[]), CAST(:channels AS text[]),
                                     CAST(:directions AS text[]), CAST(:dedupeIds AS uuid[])))
            FOR KEY SHARE OF original SKIP LOCKED
            """;

    /**
     * Adds the read of the decisions already stored for these events to the round trip; the answer,
     * by business key and dedupe_id, once it has run.
     */
    Supplier<Map<RequestId, Decision>> findAll(List<RequestId> events, RoundTrip trip) {
        ColumnArrays<RequestId> parameters =
                ColumnArrays.keyed(events, RequestId::businessKey).add("dedupeIds", RequestId::dedupeId, UUID[]::new);
        return trip.query(SELECT_DECISIONS, parameters.parameters(), rs -> {
            Map<RequestId, Decision> stored = new HashMap<>();
            while (rs.next()) {
                Decision decision = RequestLogRow.decision(rs, rs.getRow());
                stored.put(RequestId.of(decision), decision);
            }
            return stored;
        });
    }

    /**
     * Adds the read of the reversals' originals, by business key and the original's dedupe_id, to the
     * round trip; after the keys' locks, so what was released of each is final until the commit.
     */
    Supplier<Map<RequestId, StoredOriginal>> findOriginals(List<TransactionEvent> reversals, RoundTrip trip) {
        ColumnArrays<TransactionEvent> parameters = ColumnArrays.keyed(reversals, TransactionEvent::businessKey)
                .add("dedupeIds", TransactionEvent::reverses, UUID[]::new);
        return trip.query(SELECT_ORIGINALS, parameters.parameters(), rs -> {
            Map<RequestId, StoredOriginal> originals = new HashMap<>();
            while (rs.next()) {
                BusinessKey key = new BusinessKey(
                        rs.getObject("entity_id", UUID.class),
                        rs.getString("channel_code"),
                        Direction.valueOf(rs.getString("direction_code")));
                Long amount = rs.getObject("amount", Long.class);
                originals.put(
                        new RequestId(key, rs.getObject("dedupe_id", UUID.class)),
                        new StoredOriginal(
                                new ReversalPolicy.Original(
                                        RequestLogRow.eventType(rs.getString("type")),
                                        Verdict.valueOf(rs.getString("decision")),
                                        amount == null ? 0 : amount,
                                        rs.getLong("released")),
                                instantFromUtcTimestamp(rs, "bucket_ts"),
                                rs.getObject("account_id", UUID.class)));
            }
            return originals;
        });
    }
}
