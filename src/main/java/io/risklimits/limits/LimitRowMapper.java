package io.risklimits.limits;

import io.risklimits.decision.Scope;
import io.risklimits.decision.Window;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;
import org.springframework.jdbc.core.RowMapper;

/**
 * A {@link LimitRow} from a result row of risk_limit, read by its column names (channel, direction,
 * entity_id, window_name, max_amount, max_count, mode, scope, account_id): the one place a stored row becomes a LimitRow,
 * for the service's catalog and the operator CLI alike.
 */
public final class LimitRowMapper implements RowMapper<LimitRow> {

    public static final LimitRowMapper INSTANCE = new LimitRowMapper();

    private LimitRowMapper() {}

    @Override
    public LimitRow mapRow(ResultSet rs, int rowNum) throws SQLException {
        return new LimitRow(
                rs.getString("channel"),
                rs.getString("direction"),
                rs.getObject("entity_id", UUID.class),
                Window.fromLabel(rs.getString("window_name")),
                rs.getLong("max_amount"),
                rs.getLong("max_count"),
                LimitRow.Mode.fromLabel(rs.getString("mode")),
                Scope.fromLabel(rs.getString("scope")),
                rs.getObject("account_id", UUID.class));
    }
}
