package io.risklimits.decision.store;

import static io.risklimits.decision.store.SqlTime.instantFromUtcTimestamp;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Conversion;
import io.risklimits.decision.Decision;
import io.risklimits.decision.Direction;
import io.risklimits.decision.EventType;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.Verdict;
import io.risklimits.decision.hold.CountedPart;
import io.risklimits.decision.hold.HoldLedger;
import io.risklimits.decision.hold.HoldStatus;
import io.risklimits.decision.hold.Original;
import io.risklimits.decision.hold.PartKind;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.springframework.stereotype.Repository;

/**
 * Reads what risk_request_log holds for a batch, under its keys' locks: the decisions stored already
 * for its events (the answers to redeliveries) and the originals its follow-ups name.
 */
@Repository
class RequestLogReader {

    // One probe of the primary key per event, whatever the statistics say of the log: the LATERAL
    // subquery is planned on its own (OFFSET 0), so the planner cannot turn it into a join that reads the
    // whole log. Outside a batch's transaction (the hold sweep's read of the expiries it is to send)
    // sequential scans are not turned off.
    private static final String SELECT_DECISIONS = "SELECT " + RequestLogRow.COLUMNS + """
            FROM unnest(CAST(:entityIds AS uuid[]), CAST(:channels AS text[]), CAST(:directions AS text[]),
                        CAST(:dedupeIds AS uuid[])) AS event (event_entity_id, event_channel_code,
                                                               event_direction_code, event_dedupe_id)
            CROSS JOIN LATERAL (SELECT stored.*
                                FROM risk_request_log stored
                                WHERE stored.entity_id = event.event_entity_id
                                  AND stored.channel_code = event.event_channel_code
                                  AND stored.direction_code = event.event_direction_code
                                  AND stored.dedupe_id = event.event_dedupe_id
                                OFFSET 0) AS risk_request_log
            """;

    // Each follow-up's original as it stands under the key's lock: its type, decision, amount, currency,
    // account and bucket, and its ledger (risk_authorization_ledger) if it has one. An approved
    // authorization without a ledger was never a hold nor acted on by a capture or an increment: what is
    // counted of it is its amount minus what its RELEASED reversals gave back
    // (risk_request_log_releases_idx, which answers that sum alone), in its bucket, as in version 2; in
    // another currency, what is left of its own amount is that amount minus its RELEASED reversals'
    // amounts (in its currency, as a reversal in another is refused and releases nothing), summed only for
    // such an original, since the amounts are read from the rows. A missing row is an original that
    // is unknown under the key, or past retention. Each original and its ledger are one probe of their
    // primary keys each, whatever the statistics say of the tables: each LATERAL subquery is planned on
    // its own (FOR KEY SHARE, OFFSET 0), so the planner cannot turn it into a join that reads a table
    // thought empty (a new one, or one analyzed between deletes) once in full per original. The row found
    // stays locked until the commit, so the archiver, which deletes a window's audit rows before its
    // buckets, cannot delete the original's hour before its release is written; a row the archiver is
    // deleting is skipped (past retention) rather than waited for.
    private static final String SELECT_ORIGINALS = """
            SELECT original.entity_id, original.channel_code, original.direction_code, original.dedupe_id,
                   original.type, original.decision, original.amount, original.currency,
                   original.counted_amount, original.fx_currency, original.fx_rate, original.fx_valid_from,
                   released.amount AS released, released_own.amount AS released_own,
                   original.bucket_ts, original.account_id, ledger.dedupe_id AS ledger_id,
                   %s
            FROM (SELECT DISTINCT *
                  FROM unnest(CAST(:entityIds AS uuid[]), CAST(:channels AS text[]),
                              CAST(:directions AS text[]), CAST(:dedupeIds AS uuid[])))
                 AS named (entity_id, channel_code, direction_code, dedupe_id)
            CROSS JOIN LATERAL (SELECT *
                                FROM risk_request_log original
                                WHERE original.entity_id = named.entity_id
                                  AND original.channel_code = named.channel_code
                                  AND original.direction_code = named.direction_code
                                  AND original.dedupe_id = named.dedupe_id
                                FOR KEY SHARE SKIP LOCKED) AS original
            LEFT JOIN LATERAL (SELECT ledger.*
                               FROM risk_authorization_ledger ledger
                               WHERE ledger.entity_id = original.entity_id
                                 AND ledger.channel_code = original.channel_code
                                 AND ledger.direction_code = original.direction_code
                                 AND ledger.dedupe_id = original.dedupe_id
                               OFFSET 0) AS ledger ON true
            LEFT JOIN LATERAL (SELECT coalesce(sum(reversal.released_amount), 0) AS amount
                               FROM risk_request_log reversal
                               WHERE ledger.dedupe_id IS NULL AND original.type = 'AUTHORIZATION'
                                 AND original.decision = 'APPROVED'
                                 AND reversal.entity_id = original.entity_id
                                 AND reversal.channel_code = original.channel_code
                                 AND reversal.direction_code = original.direction_code
                                 AND reversal.reverses = original.dedupe_id
                                 AND reversal.decision = 'RELEASED') AS released ON true
            LEFT JOIN LATERAL (SELECT coalesce(sum(reversal.amount), 0) AS amount
                               FROM risk_request_log reversal
                               WHERE ledger.dedupe_id IS NULL AND original.type = 'AUTHORIZATION'
                                 AND original.decision = 'APPROVED' AND original.fx_rate IS NOT NULL
                                 AND reversal.entity_id = original.entity_id
                                 AND reversal.channel_code = original.channel_code
                                 AND reversal.direction_code = original.direction_code
                                 AND reversal.reverses = original.dedupe_id
                                 AND reversal.decision = 'RELEASED') AS released_own ON true
            """.formatted(HoldLedgers.LEDGER_COLUMNS);

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
     * Adds the read of the follow-ups' originals, by business key and the original's dedupe_id, to the
     * round trip; after the keys' locks, so what is counted of each is final until the commit.
     */
    Supplier<Map<RequestId, StoredOriginal>> findOriginals(List<TransactionEvent> followUps, RoundTrip trip) {
        ColumnArrays<TransactionEvent> parameters = ColumnArrays.keyed(followUps, TransactionEvent::businessKey)
                .add("dedupeIds", TransactionEvent::originalId, UUID[]::new);
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
                                original(rs, amount),
                                rs.getObject("account_id", UUID.class),
                                amount == null ? 0 : amount,
                                rs.getString("currency"),
                                RequestLogRow.conversion(rs),
                                rs.getObject("ledger_id") != null));
            }
            return originals;
        });
    }

    // the ledger of an approved authorization (as stored, or as version 2 knows it); why there is none
    // for any other event
    private static Original original(ResultSet rs, Long eventAmount) throws SQLException {
        // what the authorization counted: its amount, or what it was converted to
        Conversion conversion = RequestLogRow.conversion(rs);
        Long amount = conversion == null ? eventAmount : Long.valueOf(conversion.countedAmount());
        boolean approvedAuthorization = RequestLogRow.eventType(rs.getString("type")) == EventType.AUTHORIZATION
                && Verdict.valueOf(rs.getString("decision")) == Verdict.APPROVED;
        if (!approvedAuthorization || amount == null) {
            return Original.NoLedger.NOT_APPROVED;
        }
        if (rs.getObject("ledger_id") != null) {
            return HoldLedgers.ledger(rs);
        }
        Instant bucket = instantFromUtcTimestamp(rs, "bucket_ts");
        long released = rs.getLong("released");
        boolean nothingCounted = released >= amount;
        // in another currency, what is left of its own amount: nothing once nothing is counted
        HoldLedger.OwnCurrency own = conversion == null
                ? null
                : new HoldLedger.OwnCurrency(
                        nothingCounted ? 0 : Math.max(0, eventAmount - rs.getLong("released_own")), 0);
        return new HoldLedger(
                List.of(new CountedPart(PartKind.AUTHORIZATION, bucket, amount, Math.min(released, amount))),
                0,
                nothingCounted ? HoldStatus.RELEASED : HoldStatus.OPEN,
                null,
                nothingCounted ? null : bucket,
                own);
    }
}
