package io.risklimits.archive;

import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** risk_archive_command: which command_ids were handled, for idempotency. */
@Repository
class ArchiveCommandLog {

    private static final String START = """
            INSERT INTO risk_archive_command (command_id, status) VALUES (:commandId, 'RUNNING')
            ON CONFLICT (command_id) DO NOTHING
            """;

    private static final String FINISH = """
            UPDATE risk_archive_command
            SET status = :status, result = CAST(:result AS jsonb), finished_at = clock_timestamp()
            WHERE command_id = :commandId
            """;

    private final JdbcClient jdbc;

    ArchiveCommandLog(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The status of an earlier run of this command: RUNNING (it crashed) or how it finished. */
    Optional<String> status(UUID commandId) {
        return jdbc.sql("SELECT status FROM risk_archive_command WHERE command_id = :commandId")
                .param("commandId", commandId)
                .query(String.class)
                .optional();
    }

    void start(UUID commandId) {
        jdbc.sql(START).param("commandId", commandId).update();
    }

    void finish(ArchiveResult result) {
        jdbc.sql(FINISH)
                .param("commandId", result.commandId())
                .param("status", result.status().name())
                .param("result", result.toJson())
                .update();
    }
}
