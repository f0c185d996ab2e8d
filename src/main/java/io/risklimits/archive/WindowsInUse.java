package io.risklimits.archive;

import io.risklimits.decision.Window;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The windows risk_limit uses now (rows of either mode), read afresh before each archive run. */
@Repository
class WindowsInUse {

    private static final String SELECT_WINDOWS_IN_USE = """
            SELECT DISTINCT window_name FROM risk_limit
            """;

    private final JdbcClient jdbc;

    WindowsInUse(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    List<Window> read() {
        return jdbc.sql(SELECT_WINDOWS_IN_USE)
                .query((rs, rowNum) -> Window.fromLabel(rs.getString("window_name")))
                .list();
    }
}
