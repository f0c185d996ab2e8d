package io.risklimits.backtest;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Direction;
import io.risklimits.decision.EventType;
import io.risklimits.decision.Reason;
import io.risklimits.decision.Verdict;
import io.risklimits.decision.hold.HoldTerms;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import org.springframework.jdbc.core.RowCallbackHandler;

/** Turns the audit log's rows, ordered by key, into one {@link KeyHistory} per key as each key ends. */
final class KeyGrouping implements RowCallbackHandler {

    private final Consumer<KeyHistory> histories;
    private final HoldTerms holdTerms;
    private BusinessKey key;
    private List<AuditRow> rows = new ArrayList<>();
    private long rowsRead;

    KeyGrouping(Consumer<KeyHistory> histories, HoldTerms holdTerms) {
        this.histories = histories;
        this.holdTerms = holdTerms;
    }

    @Override
    public void processRow(ResultSet rs) throws SQLException {
        UUID entityId = rs.getObject("entity_id", UUID.class);
        String channel = rs.getString("channel_code");
        String direction = rs.getString("direction_code");
        if (key == null
                || !key.entityId().equals(entityId)
                || !key.channel().equals(channel)
                || !key.direction().name().equals(direction)) {
            finish();
            key = new BusinessKey(entityId, channel, Direction.valueOf(direction));
        }
        rows.add(row(rs, holdTerms));
        rowsRead++;
    }

    /** Hands on the last key's history, if any. */
    void finish() {
        if (key != null && !rows.isEmpty()) {
            histories.accept(new KeyHistory(key, rows));
            rows = new ArrayList<>();
        }
    }

    long rowsRead() {
        return rowsRead;
    }

    /**
     * The row as the replay takes it. An authorization that was not approved names, as the expiry it asked
     * for, the one the decider's hold terms give it (its own, else its channel's hold time after it was
     * decided): should the proposed limits approve it, it is replayed as the hold it would have been.
     */
    static AuditRow row(ResultSet rs, HoldTerms holdTerms) throws SQLException {
        EventType type = EventType.valueOf(rs.getString("type"));
        Verdict stored = Verdict.valueOf(rs.getString("decision"));
        Instant decidedAt = instant(rs, "decided_at");
        Instant asked = instant(rs, "asked_hold_expires_at");
        if (type == EventType.AUTHORIZATION && stored != Verdict.APPROVED) {
            asked = holdTerms.expiryOf(rs.getString("channel_code"), asked, decidedAt);
        }
        return new AuditRow(
                rs.getObject("dedupe_id", UUID.class),
                type,
                stored,
                rs.getLong("amount"),
                rs.getObject("reverses", UUID.class),
                rs.getLong("released_amount"),
                rs.getInt("released_count"),
                rs.getLong("bucket_hour"),
                rs.getBoolean("in_period"),
                reason(rs.getString("reason")),
                decidedAt,
                rs.getObject("original", UUID.class),
                instant(rs, "hold_expires_at"),
                asked,
                // a capture is final unless it said otherwise; the other types have none
                !Boolean.FALSE.equals(rs.getObject("final", Boolean.class)),
                rs.getLong("captured"),
                rs.getLong("over_captured"));
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    // a reason this version does not know is reported as none rather than failing the backtest
    private static Reason reason(String stored) {
        if (stored == null) {
            return null;
        }
        try {
            return Reason.valueOf(stored);
        } catch (IllegalArgumentException unknown) {
            return null;
        }
    }
}
