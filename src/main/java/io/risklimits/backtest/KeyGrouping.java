package io.risklimits.backtest;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Direction;
import io.risklimits.decision.EventType;
import io.risklimits.decision.Reason;
import io.risklimits.decision.Verdict;
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
    private BusinessKey key;
    private List<AuditRow> rows = new ArrayList<>();
    private long rowsRead;

    KeyGrouping(Consumer<KeyHistory> histories) {
        this.histories = histories;
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
        rows.add(row(rs));
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

    static AuditRow row(ResultSet rs) throws SQLException {
        return new AuditRow(
                rs.getObject("dedupe_id", UUID.class),
                EventType.valueOf(rs.getString("type")),
                Verdict.valueOf(rs.getString("decision")),
                rs.getLong("amount"),
                rs.getObject("reverses", UUID.class),
                rs.getLong("released_amount"),
                rs.getInt("released_count"),
                rs.getLong("bucket_hour"),
                rs.getBoolean("in_period"),
                reason(rs.getString("reason")),
                instant(rs, "decided_at"),
                rs.getObject("original", UUID.class),
                instant(rs, "hold_expires_at"),
                instant(rs, "asked_hold_expires_at"),
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
