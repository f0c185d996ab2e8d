package io.risklimits.archive;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The archiver's answer to one command (schemas/archive-result.schema.json). deletedAggRows counts the
 * buckets of every scope; deletedScopeAggRows, those of risk_scope_hourly_agg among them, is not a
 * field of the answer (it tells the metrics the tables apart).
 */
record ArchiveResult(
        UUID commandId,
        Status status,
        boolean dryRun,
        LocalDateTime cutoff,
        LocalDateTime cursorFrom,
        LocalDateTime cursorTo,
        int windows,
        long deletedAggRows,
        long deletedScopeAggRows,
        long deletedLogRows,
        long durationMs,
        String error,
        Integer windowMinutesUsed) {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    enum Status {
        COMPLETED,
        PARTIAL,
        DUPLICATE,
        BUSY,
        INVALID,
        FAILED
    }

    /** An answer for a command that did not run (DUPLICATE, BUSY, INVALID, or FAILED before any delete). */
    static ArchiveResult notRun(UUID commandId, Status status, boolean dryRun, String error, long durationMs) {
        return new ArchiveResult(commandId, status, dryRun, null, null, null, 0, 0, 0, 0, durationMs, error, null);
    }

    String toJson() {
        ObjectNode json = JSON.createObjectNode();
        json.put("command_id", commandId == null ? null : commandId.toString());
        json.put("status", status.name());
        json.put("dry_run", dryRun);
        json.put("cutoff", utc(cutoff));
        json.put("cursor_from", utc(cursorFrom));
        json.put("cursor_to", utc(cursorTo));
        json.put("windows", windows);
        json.put("deleted_agg_rows", deletedAggRows);
        json.put("deleted_log_rows", deletedLogRows);
        json.put("duration_ms", durationMs);
        json.put("error", error);
        json.put("window_minutes_used", windowMinutesUsed);
        return JSON.writeValueAsString(json);
    }

    private static String utc(LocalDateTime timestamp) {
        return timestamp == null
                ? null
                : Instant.from(timestamp.atOffset(ZoneOffset.UTC)).toString();
    }
}
