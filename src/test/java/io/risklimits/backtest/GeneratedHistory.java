package io.risklimits.backtest;

import io.risklimits.decision.BusinessKey;
import io.risklimits.limits.LimitRow;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A history of several keys over some weeks of hour buckets, decided event by event as the {@link
 * ModelledKey} under given limits, and filed in risk_request_log as the decider files it: about 10%
 * reversals, a few INVALID events, some events sharing a batch (one decided_at, in decided_order).
 */
final class GeneratedHistory {

    private static final String INSERT = """
            INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts, decision,
                                          reason, amount, currency, decided_at, type, reverses, released_amount,
                                          released_count, remaining, decided_order)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'USD', ?, ?, ?, ?, ?, ?, ?)
            """;

    final List<BusinessKey> keys;
    /** Every event, each key's in decided order. */
    final List<HistoryEvent> events = new ArrayList<>();

    private final Random random;

    GeneratedHistory(List<BusinessKey> keys, long seed) {
        this.keys = List.copyOf(keys);
        this.random = new Random(seed);
    }

    /** Generates eventsPerKey events per key over the hours from start on, decided under the limits. */
    GeneratedHistory generate(Instant start, int hours, int eventsPerKey, List<LimitRow> limits, ZoneId zone) {
        for (int key = 0; key < keys.size(); key++) {
            ModelledKey model = new ModelledKey(keys.get(key), limits, zone);
            List<HistoryEvent> ofKey = new ArrayList<>();
            for (Instant decidedAt : decidedAts(start, hours, eventsPerKey)) {
                HistoryEvent event = next(key, decidedAt, ofKey);
                model.decideAndStore(event);
                ofKey.add(event);
            }
            events.addAll(ofKey);
        }
        return this;
    }

    /** Files every event in risk_request_log. */
    void insert(JdbcTemplate db) {
        db.batchUpdate(INSERT, events, 1_000, (statement, event) -> {
            BusinessKey key = keys.get(event.key);
            statement.setObject(1, key.entityId());
            statement.setString(2, key.channel());
            statement.setString(3, key.direction().name());
            statement.setObject(4, event.dedupeId);
            statement.setObject(5, LocalDateTime.ofInstant(event.bucket, ZoneOffset.UTC));
            statement.setString(6, event.decision);
            statement.setString(7, event.reason);
            statement.setLong(8, event.amount);
            statement.setObject(9, event.decidedAt.atOffset(ZoneOffset.UTC));
            statement.setString(10, event.kind == HistoryEvent.Kind.REVERSAL ? "REVERSAL" : "AUTHORIZATION");
            statement.setObject(11, event.reverses);
            statement.setObject(12, event.releasedAmount);
            statement.setObject(13, event.releasedCount == null ? null : event.releasedCount.shortValue());
            statement.setObject(14, event.remaining);
            statement.setInt(15, event.decidedOrder);
        });
    }

    /** Sorted instants, several in one hour now and then, inside their hour buckets. */
    private List<Instant> decidedAts(Instant start, int hours, int count) {
        List<Instant> instants = new ArrayList<>();
        for (int index = 0; index < count; index++) {
            long micros = random.nextLong(Duration.ofHours(hours).toNanos() / 1_000);
            instants.add(start.plusNanos(micros * 1_000));
        }
        instants.sort(Comparator.naturalOrder());
        // one batch of two or three events now and then: the same decided_at
        for (int index = 1; index < instants.size(); index++) {
            if (random.nextInt(8) == 0) {
                instants.set(index, instants.get(index - 1));
            }
        }
        return instants;
    }

    private HistoryEvent next(int key, Instant decidedAt, List<HistoryEvent> earlier) {
        Instant bucket = decidedAt.truncatedTo(java.time.temporal.ChronoUnit.HOURS);
        HistoryEvent previous = earlier.isEmpty() ? null : earlier.get(earlier.size() - 1);
        // within a batch the order goes up; between batches it is the place in some other batch
        int order = previous != null && previous.decidedAt.equals(decidedAt)
                ? previous.decidedOrder + 1 + random.nextInt(3)
                : random.nextInt(500);
        int dice = random.nextInt(100);
        if (dice < 2) {
            return new HistoryEvent(key, HistoryEvent.Kind.INVALID, 0, null, bucket, decidedAt, order);
        }
        if (dice < 12 && previous != null) {
            HistoryEvent original = earlier.get(random.nextInt(earlier.size()));
            boolean unknown = random.nextInt(10) == 0;
            long amount = switch (random.nextInt(3)) {
                case 0 -> Math.max(1, original.amount);
                case 1 -> 1 + random.nextInt((int) Math.max(1, original.amount));
                default -> Math.max(1, original.amount / 2);
            };
            return new HistoryEvent(
                    key,
                    HistoryEvent.Kind.REVERSAL,
                    amount,
                    unknown ? UUID.randomUUID() : original.dedupeId,
                    bucket,
                    decidedAt,
                    order);
        }
        long amount = random.nextInt(4) == 0 ? 5_000 + random.nextInt(15_000) : 300 + random.nextInt(4_000);
        return new HistoryEvent(key, HistoryEvent.Kind.AUTHORIZATION, amount, null, bucket, decidedAt, order);
    }
}
