package io.risklimits.archive;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.risklimits.shared.ConditionalOnRole;
import io.risklimits.shared.RiskProperties;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * The archiver's meters: commands by status, rows deleted by table, and how far the cursor is behind
 * the cutoff (the backlog an operator should schedule commands for). The cursor lag is read from the
 * database after every command and once a minute, never on a scrape.
 */
@Component
@ConditionalOnRole("archiver")
class ArchiverMetrics {

    private static final Logger log = LoggerFactory.getLogger(ArchiverMetrics.class);

    private final MeterRegistry meters;
    private final ArchiveCursor cursor;
    private final RiskProperties risk;
    private final AtomicLong cursorLagSeconds = new AtomicLong();

    ArchiverMetrics(MeterRegistry meters, ArchiveCursor cursor, RiskProperties risk) {
        this.meters = meters;
        this.cursor = cursor;
        this.risk = risk;
        Gauge.builder("risk.archiver.cursor.lag", cursorLagSeconds, AtomicLong::get)
                .description("how far the archive cursor is behind the retention cutoff (0: nothing to delete)")
                .baseUnit("seconds")
                .register(meters);
    }

    void commandAnswered(ArchiveResult result) {
        Counter.builder("risk.archiver.commands")
                .description("archive commands answered, by status")
                .tag("status", result.status().name())
                .register(meters)
                .increment();
        if (!result.dryRun()) {
            deleted("risk_hourly_agg", result.deletedAggRows() - result.deletedScopeAggRows());
            deleted("risk_scope_hourly_agg", result.deletedScopeAggRows());
            deleted("risk_request_log", result.deletedLogRows());
        }
        refreshCursorLag();
    }

    private void deleted(String table, long rows) {
        Counter.builder("risk.archiver.deleted.rows")
                .description("rows deleted past retention")
                .tag("table", table)
                .register(meters)
                .increment(rows);
    }

    @Scheduled(
            initialDelay = 0,
            fixedDelayString =
                    "#{@'risk.archiver-io.risklimits.archive.ArchiverProperties'.metricsRefresh().toMillis()}")
    void refreshCursorLag() {
        try {
            LocalDateTime cutoff = cursor.cutoff(risk.retention());
            LocalDateTime from = cursor.stored().or(cursor::oldestBucket).orElse(cutoff);
            cursorLagSeconds.set(Math.max(0, Duration.between(from, cutoff).toSeconds()));
        } catch (RuntimeException unavailable) {
            // the last value stays; database health is reported by /actuator/health
            log.debug("Could not read the archive cursor: {}", unavailable.toString());
        }
    }
}
