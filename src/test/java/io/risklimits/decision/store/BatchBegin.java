package io.risklimits.decision.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.UUID;

/** risk_begin_scoped_batch_decision on a connection of the test's own, for the key (entity, CARD, OUT). */
final class BatchBegin {

    private static final String BEGIN =
            "SELECT decided_at FROM risk_begin_scoped_batch_decision(ARRAY[?]::uuid[], ARRAY['CARD'], ARRAY['OUT'], "
                    + "'{}', '{}', '{}', '{}')";

    private BatchBegin() {}

    /** Locks the key until the connection's transaction ends; returns the clock read after the lock. */
    static OffsetDateTime begin(Connection connection, UUID entity) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(BEGIN)) {
            statement.setObject(1, entity);
            try (ResultSet rs = statement.executeQuery()) {
                rs.next();
                return rs.getObject(1, OffsetDateTime.class);
            }
        }
    }
}
