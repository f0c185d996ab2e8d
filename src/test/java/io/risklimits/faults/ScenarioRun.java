package io.risklimits.faults;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.Awaitility;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What one scenario has to itself: its topics, consumer groups, channel (and so its business keys
 * and limits), its worker processes, its event stream, and an archiver kept busy throughout with a
 * backlog past retention and a command every two seconds.
 */
final class ScenarioRun implements AutoCloseable {

    private static final int KEYS = 8;
    private static final int OLD_ROWS = 2000;

    /** The channel of a scenario with holds: the default of risk.holds.channels, so its authorizations hold. */
    static final String HOLDS_CHANNEL = "CARD";

    final FaultCluster cluster;
    final String name;
    final String suffix = UUID.randomUUID().toString().substring(0, 8);
    final String channel;
    final ScenarioLoad load;
    final List<Invariants.WindowLimit> limits;
    final Invariants.WindowLimit accountLimit;
    private final List<WorkerProcess> workers = new ArrayList<>();
    private final AtomicBoolean archiving = new AtomicBoolean(true);
    private String databaseUrl;
    private CompletableFuture<Void> archivePump;

    /**
     * A fault scenario's run: its stream of events (on the holds channel when it has holds, else on a
     * channel of its own), limits that bind midway through it, and a backlog past retention.
     */
    ScenarioRun(FaultCluster cluster, String name, int events, boolean holds) {
        this.cluster = cluster;
        this.name = name;
        this.channel = holds ? HOLDS_CHANNEL : "FAULT_" + suffix.toUpperCase();
        this.load = ScenarioLoad.mixed(events, KEYS, channel, name.hashCode(), holds);
        this.limits = limitsBindingMidStream(events / KEYS);
        this.accountLimit = accountLimitBindingEarlier(events / KEYS);
        this.databaseUrl = cluster.jdbcUrl();
        JdbcTemplate db = cluster.jdbc();
        String[] windows = {"24h", "7d", "30d"};
        for (int i = 0; i < limits.size(); i++) {
            db.update(
                    "INSERT INTO risk_limit (channel, direction, entity_id, window_name, max_amount, max_count)"
                            + " VALUES (?, 'OUT', NULL, ?, ?, ?)",
                    channel,
                    windows[i],
                    limits.get(i).maxAmount(),
                    limits.get(i).maxCount());
        }
        for (UUID account : load.accounts()) {
            db.update(
                    "INSERT INTO risk_limit (scope, channel, direction, account_id, window_name, max_amount, max_count)"
                            + " VALUES ('account', '*', 'OUT', ?, '24h', ?, ?)",
                    account,
                    accountLimit.maxAmount(),
                    accountLimit.maxCount());
        }
        seedBacklogPastRetention(db);
    }

    /** A run of the given stream alone: no limits, no backlog; {@link #startLoad} is then not called. */
    ScenarioRun(FaultCluster cluster, String name, ScenarioLoad load) {
        this.cluster = cluster;
        this.name = name;
        this.channel = load.channel();
        this.load = load;
        this.limits = List.of();
        this.accountLimit = null;
        this.databaseUrl = cluster.jdbcUrl();
    }

    /**
     * An account holds three of the keys and most of their events name it: its 24h amount binds at about
     * half of what those events ask, before the three keys' own limits would together, so the accounts'
     * locks are contended by every worker while the faults strike.
     */
    private static Invariants.WindowLimit accountLimitBindingEarlier(int eventsPerKey) {
        return new Invariants.WindowLimit(24, 3L * eventsPerKey * 800 / 3, 1_000_000);
    }

    /**
     * Each window binds about halfway through a key's events (amounts average 800), so the faults
     * strike while keys are near their limits and approvals still happen: a lost lock or a doubled
     * approval shows as a window over its limit.
     */
    private static List<Invariants.WindowLimit> limitsBindingMidStream(int eventsPerKey) {
        return List.of(
                new Invariants.WindowLimit(24, 1_000_000, eventsPerKey / 2),
                new Invariants.WindowLimit(24 * 7, eventsPerKey * 800L * 45 / 100, 1_000_000),
                new Invariants.WindowLimit(24 * 30, 1_000_000, eventsPerKey * 55 / 100));
    }

    /** Workers reach PostgreSQL through this URL from now on (PgBouncer, say); migrations stay direct. */
    void connectThrough(String url) {
        this.databaseUrl = url;
    }

    String transactions() {
        return "risk.transactions." + suffix;
    }

    String decisions() {
        return "risk.decisions." + suffix;
    }

    String deadLetters() {
        return "risk.transactions.dlt." + suffix;
    }

    private String archiveCommands() {
        return "risk.archive.commands." + suffix;
    }

    String deciderGroup() {
        return "risk-decider-" + suffix;
    }

    WorkerProcess startWorker(String workerName, Map<String, String> extra) throws Exception {
        Map<String, String> properties = new HashMap<>();
        properties.put("spring.datasource.url", databaseUrl);
        properties.put("spring.datasource.username", "postgres");
        properties.put("spring.datasource.password", "");
        properties.put("spring.flyway.url", cluster.jdbcUrl());
        properties.put("spring.flyway.user", "postgres");
        properties.put("spring.flyway.password", "");
        properties.put("spring.datasource.hikari.maximum-pool-size", "8");
        properties.put("spring.kafka.bootstrap-servers", cluster.bootstrapServers());
        properties.put("spring.kafka.consumer.properties.session.timeout.ms", "6000");
        properties.put("spring.kafka.consumer.properties.heartbeat.interval.ms", "1500");
        properties.put("risk.topics.transactions", transactions());
        properties.put("risk.topics.decisions", decisions());
        properties.put("risk.topics.dead-letter", deadLetters());
        properties.put("risk.topics.archive-commands", archiveCommands());
        properties.put("risk.topics.archive-results", "risk.archive.results." + suffix);
        properties.put("risk.decider.group-id", deciderGroup());
        properties.put("risk.archiver.group-id", "risk-archiver-" + suffix);
        properties.put("risk.archiver.workers", "3");
        // a worker killed while archiving keeps the lease until it expires: 20 s, not 5 min, here
        properties.put("risk.archiver.lease", "20s");
        // more consumers and smaller polls: more transactions of one key at the same time
        properties.put("risk.decider.concurrency", "3");
        properties.put("spring.kafka.consumer.max-poll-records", "50");
        properties.put("risk.limits.refresh", "1s");
        if (load.holds()) {
            // holds of a few seconds expire within about a second of their expiry
            properties.put("risk.holds.sweep-interval", "1s");
        }
        properties.putAll(extra);
        WorkerProcess worker =
                WorkerProcess.start(name + "-" + workerName, cluster.home().resolve("logs"), properties);
        workers.add(worker);
        return worker;
    }

    /** Sends the scenario's events and, alongside, an archive command every two seconds. */
    CompletableFuture<Void> startLoad(int perSecond) {
        archivePump = CompletableFuture.runAsync(this::pumpArchiveCommands);
        return load.send(cluster.bootstrapServers(), transactions(), perSecond);
    }

    private void pumpArchiveCommands() {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                cluster.bootstrapServers(),
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                300_000,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class))) {
            while (archiving.get()) {
                String command = "{\"command_id\": \"" + UUID.randomUUID() + "\", \"window_minutes\": 180}";
                producer.send(new ProducerRecord<>(archiveCommands(), null, command.getBytes(StandardCharsets.UTF_8)));
                Thread.sleep(2000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Old rows of other keys, 33 to 35 days back (past the 32-day retention), and the archive cursor just before them. */
    private void seedBacklogPastRetention(JdbcTemplate db) {
        LocalDateTime start = db.queryForObject(
                "SELECT date_trunc('hour', (now() AT TIME ZONE 'UTC') - interval '35 days')", LocalDateTime.class);
        db.update("""
                INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                              decision, amount, currency, decided_at)
                SELECT gen_random_uuid(), ?, 'OUT', gen_random_uuid(), ? + (n % 48) * interval '1 hour',
                       'APPROVED', 100, 'USD', now()
                FROM generate_series(1, ?) AS n
                """, "OLD_" + suffix.toUpperCase(), start, OLD_ROWS);
        db.update(
                "INSERT INTO risk_archive_cursor (cursor_ts) VALUES (?)"
                        + " ON CONFLICT (singleton) DO UPDATE SET cursor_ts = EXCLUDED.cursor_ts",
                start);
        db.update("DELETE FROM risk_archive_lease");
    }

    /**
     * Waits until every decidable event has its audit row, every decision (an expiry's too) its messages,
     * and the short holds are all closed, their expiries recorded as sent.
     */
    void awaitAllDecided(Invariants invariants, Duration timeout) {
        Awaitility.await(name + ": every event decided")
                .atMost(timeout)
                .pollInterval(Duration.ofSeconds(1))
                .ignoreExceptions()
                .until(() -> invariants.auditRows().keySet().containsAll(load.decidable())
                        && invariants.holdsSettled().passed()
                        && invariants.messagesAgree(decisions()).passed());
    }

    Invariants.Check backlogDeleted() {
        Integer left = cluster.jdbc()
                .queryForObject(
                        "SELECT count(*) FROM risk_request_log WHERE channel_code = ?",
                        Integer.class,
                        "OLD_" + suffix.toUpperCase());
        return new Invariants.Check(
                "archiver deleted the backlog past retention meanwhile",
                left != null && left == 0,
                (OLD_ROWS - (left == null ? 0 : left)) + " of " + OLD_ROWS + " old rows deleted");
    }

    @Override
    public void close() throws Exception {
        archiving.set(false);
        if (archivePump != null) {
            archivePump.join();
        }
        for (WorkerProcess worker : workers) {
            worker.close();
        }
    }
}
