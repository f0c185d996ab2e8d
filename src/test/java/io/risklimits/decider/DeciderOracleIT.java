package io.risklimits.decider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.risklimits.decider.OracleEvents.Sent;
import io.risklimits.decision.FxRate;
import io.risklimits.decision.ReferenceModel;
import io.risklimits.decision.hold.HoldTerms;
import io.risklimits.limits.FxRateCatalog;
import io.risklimits.support.DecisionMessage;
import io.risklimits.support.Events;
import io.risklimits.support.RunningService;
import io.risklimits.support.TestInfrastructure;
import io.risklimits.support.TestKafka;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

/**
 * Thousands of random events over dozens of keys, with history in every window, must get exactly
 * the decisions of the sequential reference model: verdict, reason, usage and limits, at every scope.
 * Every window kind is limited, from rows of different specificity, with the calendar windows in
 * America/New_York: this November began in daylight saving time, so the month window spans the change.
 * Entities act on several channels, accounts hold several entities (not every event names its account),
 * and limits are set at the entity, account-channel and account scopes too. Events of one account are
 * on different partitions, so the model replays them in the order the service decided them: the order
 * of (decided_at, decided_order) in the audit log, which the locks of the scope keys make a serial order
 * of any two events that share one.
 *
 * <p>The hold lifecycle runs through it: one channel's authorizations are holds, and any authorization
 * naming a hold_expires_at; many of them expire within seconds, while the events are sent in waves, each
 * decided before the next is sent, so that captures, increments and reversals come before and after their
 * hold's expiry. The decision time is the database clock's, as every decision and audit row records it:
 * the model expires the holds due at a batch's decided_at before the batch's decisions (a hold approved
 * already due, right after its authorization, where the audit log files its expiry), and an EXPIRED
 * decision (made by a batch or by the sweep) must be one the model made. At the end, when every short hold
 * has expired, every hour bucket of every scope key equals the model's.
 *
 * <p>About 30 % of the authorizations are in other currencies than the limit currency (USD), and their
 * follow-ups in the same, now and then in another: JPY (no minor unit) and KWD (three decimals) at rates
 * that change between waves (a row of risk_fx_rate valid from then on, in force before the next wave),
 * CZK without a rate until the history is under way, PLN with a rate older than risk.fx.max-age only, and
 * THB with none. The model converts with the rate valid at each decision's decided_at, and every decision
 * carries the counted_amount and fx it expects.
 */
class DeciderOracleIT {

    private static final ZoneId ZONE = ZoneId.of("America/New_York");

    private static final int ENTITIES = 20;
    // entities 0 to 14 belong to the accounts in turn, the last five to none
    private static final int ACCOUNTS = 5;
    private static final int ENTITIES_WITH_ACCOUNT = 15;
    private static final int CHANNELS = 3;
    private static final int EVENTS = Integer.getInteger("oracle.events", 3000);
    // each wave is decided before the next is sent, so that follow-ups come before and after expiries
    private static final int WAVES = 6;
    private static final long SEED = 20261122L;
    private static final Duration HOLD_TIME = Duration.ofDays(7);
    private static final Duration FX_MAX_AGE = Duration.ofHours(1);
    // how soon the service reads a new rate: a wave waits for it, so it may be short
    private static final Duration REFRESH = Duration.ofMillis(300);
    private static final List<OracleEvents.Foreign> FOREIGN = List.of(
            new OracleEvents.Foreign("JPY", 11, 1.5),
            new OracleEvents.Foreign("KWD", 9, 3.1),
            new OracleEvents.Foreign("CZK", 4, 23),
            new OracleEvents.Foreign("PLN", 3, 4),
            new OracleEvents.Foreign("THB", 3, 35));

    /** The rows the migration seeds, which every key's limits resolve over. */
    private static final List<LimitRow> SEEDED_DEFAULTS = List.of(
            new LimitRow("key", "*", "*", null, "24h", 1_000_000, 100),
            new LimitRow("key", "*", "*", null, "7d", 5_000_000, 500),
            new LimitRow("key", "*", "*", null, "30d", 20_000_000, 2_000));

    private final JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
    private final String channelPrefix =
            "ORC_" + UUID.randomUUID().toString().substring(0, 8).toUpperCase();
    private final List<String> channels = new ArrayList<>();
    private final List<UUID> entities = new ArrayList<>();
    private final List<UUID> accounts = new ArrayList<>();
    private final List<LimitRow> limitRows = new ArrayList<>();
    private final Instant loadedAt = Instant.now();
    // the rows of risk_fx_rate the test wrote, by currency, by valid_from
    private final Map<String, TreeMap<Instant, BigDecimal>> ratesWritten = new HashMap<>();
    private final Random rateChanges = new Random(SEED);

    /**
     * A row of risk_limit the test sets, resolved by hand: at its scope, for each window the matching row
     * of the owner (entity or account) weighs most, then a channel, then a direction.
     *
     * @param owner the entity (key and entity scopes) or the account (account scopes); null for any
     */
    record LimitRow(
            String scope, String channel, String direction, UUID owner, String window, long amount, long count) {

        boolean matches(String scope, UUID owner, String channel, String direction) {
            return this.scope.equals(scope)
                    && (this.owner == null || this.owner.equals(owner))
                    && (this.channel.equals("*") || this.channel.equals(channel))
                    && (this.direction.equals("*") || this.direction.equals(direction));
        }

        int specificity() {
            return (owner != null ? 4 : 0) + (channel.equals("*") ? 0 : 2) + (direction.equals("*") ? 0 : 1);
        }
    }

    // its week and month rows would hold other tests' services to a longer retention
    @AfterEach
    void deleteLimits() {
        db.update("DELETE FROM risk_limit WHERE channel LIKE ?", channelPrefix + "%");
        entities.forEach(entity -> db.update("DELETE FROM risk_limit WHERE entity_id = ?", entity));
        accounts.forEach(account -> db.update("DELETE FROM risk_limit WHERE account_id = ?", account));
        // other tests convert with these currencies' rates too
        ratesWritten.forEach((currency, rates) -> rates.keySet()
                .forEach(validFrom -> db.update(
                        "DELETE FROM risk_fx_rate WHERE currency = ? AND valid_from = ?",
                        currency,
                        OffsetDateTime.ofInstant(validFrom, ZoneOffset.UTC))));
    }

    @Test
    void decisionsEqualThoseOfTheReferenceModelAtEveryScope() {
        for (int i = 0; i < CHANNELS; i++) {
            channels.add(channelPrefix + "_" + i);
        }
        for (int i = 0; i < ENTITIES; i++) {
            entities.add(UUID.randomUUID());
        }
        for (int i = 0; i < ACCOUNTS; i++) {
            accounts.add(UUID.randomUUID());
        }
        insertLimits();
        String holdChannel = channels.get(1);
        ReferenceModel model =
                new ReferenceModel(ZONE, Set.of(holdChannel), HOLD_TIME, OracleEvents.LIMIT_CURRENCY, FX_MAX_AGE);
        loadHistory(model);
        OracleEvents events =
                new OracleEvents(SEED, entities, accounts, channels, holdChannel, this::accountOf, FOREIGN);
        writeRate("JPY", "0.006712", Duration.ZERO);
        writeRate("KWD", "3.2541", Duration.ZERO);
        writeRate("PLN", "0.2507", FX_MAX_AGE.plusMinutes(10));

        RunningService.Topics topics = RunningService.Topics.unique();
        Map<String, Object> settings = Map.of(
                "risk.limits.time-zone",
                ZONE.getId(),
                "risk.holds.channels",
                holdChannel,
                "risk.holds.ttl",
                HOLD_TIME.toString(),
                "risk.holds.sweep-interval",
                "2s",
                "risk.limits.refresh",
                REFRESH.toMillis() + "ms",
                "risk.fx.max-age",
                FX_MAX_AGE.toString());
        try (RunningService service = RunningService.start(topics, settings);
                KafkaProducer<byte[], byte[]> producer = TestKafka.producer()) {
            Map<String, Sent> heldBefore = loadHoldsDecidedBefore(model, events);
            long started = System.nanoTime();
            for (int wave = 0; wave < WAVES; wave++) {
                List<Future<RecordMetadata>> sends = new ArrayList<>();
                for (int i = 0; i < EVENTS / WAVES; i++) {
                    Sent event = events.next();
                    sends.add(producer.send(
                            new ProducerRecord<>(topics.transactions(), TestKafka.utf8(event.key()), event.payload())));
                }
                TestKafka.confirm(sends);
                awaitDecided(
                        events.sent().stream().map(Sent::dedupeId).distinct().count());
                if (wave < WAVES - 1) {
                    changeRates(wave, service.bean(FxRateCatalog.class));
                }
            }
            awaitEveryShortHoldExpired(events.latestShortExpiry());
            List<DecidedRow> decided = decidedOrder();
            List<DecisionMessage> messages = readUntilEverySendIsAnswered(topics, events.sent(), decided);
            double seconds = (System.nanoTime() - started) / 1e9;
            System.out.printf(
                    "Oracle: %d events decided end to end in %.1f s, in %d waves, the short holds expired;"
                            + " %d decision messages%n",
                    EVENTS, seconds, WAVES, messages.size());
            ratesOfTheTestsCurrencies(model);
            assertAgainstModel(events.sent(), heldBefore, decided, messages, model);
            assertThat(bucketsDiffering(bucketsOfEveryScopeKey(), model.buckets()))
                    .as("the hour buckets of every scope key at the end, where they differ from the model's")
                    .isEmpty();
        }
    }

    /**
     * A row of risk_fx_rate for the currency, valid from this long before the database clock; returns its
     * valid_from.
     */
    private Instant writeRate(String currency, String rate, Duration ago) {
        Instant validFrom = db.queryForObject(
                        "INSERT INTO risk_fx_rate (currency, rate, valid_from)"
                                + " VALUES (?, ?, now() - make_interval(secs => ?)) RETURNING valid_from",
                        OffsetDateTime.class,
                        currency,
                        new BigDecimal(rate),
                        ago.toSeconds())
                .toInstant();
        ratesWritten.computeIfAbsent(currency, c -> new TreeMap<>()).put(validFrom, new BigDecimal(rate));
        return validFrom;
    }

    /**
     * Between waves, rates valid from now on: JPY after every wave, KWD after every other, CZK its first
     * after the second wave and another after the fourth; returns once the service converts with them
     * (its catalog holds them), so that every decision of the next wave is made after they are in force.
     */
    private void changeRates(int wave, FxRateCatalog catalog) {
        Map<String, Instant> written = new HashMap<>();
        written.put(
                "JPY",
                writeRate(
                        "JPY",
                        BigDecimal.valueOf(6_000 + rateChanges.nextInt(1_500), 6)
                                .toPlainString(),
                        Duration.ZERO));
        if (wave % 2 == 1) {
            written.put(
                    "KWD",
                    writeRate(
                            "KWD",
                            BigDecimal.valueOf(32_000 + rateChanges.nextInt(1_000), 4)
                                    .toPlainString(),
                            Duration.ZERO));
            written.put(
                    "CZK",
                    writeRate(
                            "CZK",
                            BigDecimal.valueOf(4_200 + rateChanges.nextInt(300), 5)
                                    .toPlainString(),
                            Duration.ZERO));
        }
        Awaitility.await("the service converting with the new rates")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> written.entrySet().stream().allMatch(rate -> {
                    FxRate latest = catalog.latestAt(rate.getKey(), rate.getValue());
                    return latest != null && latest.validFrom().equals(rate.getValue());
                }));
    }

    /** Every row of risk_fx_rate of the test's currencies, told to the model. */
    private void ratesOfTheTestsCurrencies(ReferenceModel model) {
        db.query(
                "SELECT currency, rate, valid_from FROM risk_fx_rate WHERE currency = ANY (?)",
                (RowCallbackHandler) rs -> model.rate(
                        rs.getString(1),
                        rs.getBigDecimal(2),
                        rs.getObject(3, OffsetDateTime.class).toInstant()),
                (Object) FOREIGN.stream().map(OracleEvents.Foreign::code).toArray(String[]::new));
    }

    /** Waits until the audit log holds as many of the test's events (expiries aside) as were sent. */
    private void awaitDecided(long dedupeIds) {
        Awaitility.await("the wave decided")
                .atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofMillis(100))
                .until(
                        () -> db.queryForObject(
                                "SELECT count(*) FROM risk_request_log WHERE channel_code LIKE ?"
                                        + " AND type IS DISTINCT FROM 'EXPIRY' AND decided_at > ?",
                                Long.class,
                                channelPrefix + "%",
                                decidedInTheTestFrom()),
                        count -> count >= dedupeIds);
    }

    /**
     * Waits until the database clock is past the latest short hold's expiry and no hold of the test's
     * keys is open past its expiry, nor its expiry unsent: the sweep (or a batch) expired every hold that
     * expires within the test, and nothing else expires before the hold time.
     */
    private void awaitEveryShortHoldExpired(Instant latestShortExpiry) {
        Awaitility.await("every short hold expired and its expiry sent")
                .atMost(Duration.ofMinutes(1))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> db.queryForObject(
                        """
                        SELECT now() > ? AND NOT EXISTS (
                            SELECT 1 FROM risk_authorization_ledger
                            WHERE channel_code LIKE ?
                              AND ((status = 'OPEN' AND expires_at <= now()) OR NOT expiry_published))
                        """,
                        Boolean.class,
                        OffsetDateTime.ofInstant(latestShortExpiry, ZoneOffset.UTC),
                        channelPrefix + "%"));
    }

    /**
     * Decisions are delivered at least once: every record sent is answered, a record sent again (or
     * delivered again) with a replayed decision, so a dedupe id sent twice has at least two messages;
     * every expiry filed is published. The reading stops when every dedupe id has as many answers as it
     * was sent, not when it has one: a dedupe id sent again near the end would otherwise be read before
     * its replay is published. When time runs out, the failure names the dedupe ids still waiting.
     */
    private static List<DecisionMessage> readUntilEverySendIsAnswered(
            RunningService.Topics topics, List<Sent> sent, List<DecidedRow> decided) {
        Map<String, Integer> awaited = new HashMap<>();
        sent.forEach(event -> awaited.merge(event.dedupeId(), 1, Integer::sum));
        decided.stream().filter(DecidedRow::expiry).forEach(row -> awaited.put(row.dedupeId(), 1));
        int awaitedIds = awaited.size();
        List<DecisionMessage> messages = new ArrayList<>();
        try {
            TestKafka.readUntil(topics.decisions(), Duration.ofMinutes(4), records -> {
                records.subList(messages.size(), records.size()).stream()
                        .map(DecisionMessage::of)
                        .forEach(message -> {
                            messages.add(message);
                            awaited.computeIfPresent(message.dedupeId(), (id, count) -> count > 1 ? count - 1 : null);
                        });
                return awaited.isEmpty();
            });
        } catch (ConditionTimeoutException timedOut) {
            fail(
                    "%d of %d dedupe ids are still waiting for an answer, among them %s",
                    awaited.size(),
                    awaitedIds,
                    awaited.keySet().stream().limit(5).toList());
        }
        return messages;
    }

    /** An audit row of the test's keys, in the order decided. */
    record DecidedRow(String key, String dedupeId, Instant decidedAt, boolean expiry) {}

    /**
     * @param heldBefore the holds decided before the test, by dedupe_id
     */
    private void assertAgainstModel(
            List<Sent> sent,
            Map<String, Sent> heldBefore,
            List<DecidedRow> decided,
            List<DecisionMessage> messages,
            ReferenceModel model) {
        // the service's sweep expires the due holds of every key in the database, other tests' too: their
        // expiries are not this history's
        Map<String, List<DecisionMessage>> byDedupe = messages.stream()
                .filter(message -> message.json().get("channel").stringValue().startsWith(channelPrefix))
                .collect(Collectors.groupingBy(DecisionMessage::dedupeId, LinkedHashMap::new, Collectors.toList()));
        byDedupe.values().forEach(DeciderOracleIT::assertAllAgree);

        Map<String, Sent> firstSent = new LinkedHashMap<>();
        Map<String, Integer> timesSent = new HashMap<>();
        Map<String, Sent> expiring = new HashMap<>();
        Map<String, Sent> authorizations = new HashMap<>(heldBefore);
        heldBefore
                .values()
                .forEach(hold -> expiring.put(
                        HoldTerms.expiryId(UUID.fromString(hold.dedupeId())).toString(), hold));
        for (Sent event : sent) {
            if (firstSent.putIfAbsent(event.dedupeId(), event) == null && event.authorization()) {
                authorizations.put(event.dedupeId(), event);
                expiring.put(
                        HoldTerms.expiryId(UUID.fromString(event.dedupeId())).toString(), event);
            }
            timesSent.merge(event.dedupeId(), 1, Integer::sum);
        }
        assertThat(decided.stream().filter(row -> !row.expiry()).map(DecidedRow::dedupeId))
                .containsExactlyInAnyOrderElementsOf(firstSent.keySet());
        assertThat(byDedupe.keySet())
                .containsExactlyInAnyOrderElementsOf(
                        decided.stream().map(DecidedRow::dedupeId).toList());

        Map<String, Integer> outcomes = new TreeMap<>();
        Map<String, Integer> conversions = new TreeMap<>();
        Map<String, Set<Instant>> ratesUsed = new TreeMap<>();
        int approved = 0;
        int rejected = 0;
        Map<String, Instant> decidedAt = new HashMap<>();
        for (DecidedRow row : decided) {
            String dedupeId = row.dedupeId();
            DecisionMessage first = byDedupe.get(dedupeId).get(0);
            decidedAt.put(dedupeId, row.decidedAt());
            // a decision made at or after a hold's expiry never counts it; a hold approved already due
            // expires right after its authorization, where the audit log files its expiry
            model.expire(row.decidedAt());
            assertThat(Instant.parse(first.json().get("decided_at").stringValue()))
                    .as("decided_at of %s", dedupeId)
                    .isEqualTo(row.decidedAt());
            if (row.expiry()) {
                outcomes.merge("EXPIRY " + first.decision(), 1, Integer::sum);
                Sent authorization = expiring.get(dedupeId);
                assertThat(authorization)
                        .as("the authorization of expiry %s", dedupeId)
                        .isNotNull();
                assertExpiry(first, authorization, model);
                if (row.decidedAt().equals(decidedAt.get(authorization.dedupeId()))) {
                    // a hold approved already due
                    outcomes.merge("EXPIRY EXPIRED in its authorization's batch", 1, Integer::sum);
                }
                continue;
            }
            Sent event = firstSent.get(dedupeId);
            assertThat(first.replayed()).isFalse();
            if (timesSent.get(dedupeId) > 1) {
                assertThat(byDedupe.get(dedupeId)).anyMatch(DecisionMessage::replayed);
            }
            assertThat(
                            first.json().has("account_id")
                                    ? first.json().get("account_id").stringValue()
                                    : null)
                    .as("account_id of %s", dedupeId)
                    .isEqualTo(event.account());
            if (event.invalid()) {
                assertThat(first.decision()).isEqualTo("INVALID");
                model.invalid(event.key(), dedupeId);
                continue;
            }
            Map<String, Map<String, ReferenceModel.Cap>> caps =
                    capsByScope(event.key(), checkedAccount(model, event, authorizations));
            ReferenceModel.Expected expected = decide(model, event, row.decidedAt(), authorizations);
            assertThat(first.decision()).as("decision of %s", dedupeId).isEqualTo(expected.decision());
            assertReleased(first, expected, dedupeId);
            assertHoldFields(first, expected, dedupeId);
            assertConversion(first, expected, dedupeId);
            outcomes.merge(outcome(event, expected), 1, Integer::sum);
            if (expected.fx() != null) {
                conversions.merge(conversion(event, expected, row.decidedAt()), 1, Integer::sum);
                if (event.authorization()) {
                    ratesUsed
                            .computeIfAbsent(event.currency(), currency -> new HashSet<>())
                            .add(expected.fx().validFrom());
                }
            }
            assertThat(first.reason()).as("reason of %s", dedupeId).isEqualTo(expected.reason());
            assertThat(Instant.parse(first.json().get("bucket_ts").stringValue()))
                    .as("bucket_ts of %s", dedupeId)
                    .isEqualTo(row.decidedAt().truncatedTo(ChronoUnit.HOURS));
            assertWindows(
                    first.json().get("limits"),
                    first.json().get("usage"),
                    expected.usage(),
                    caps.get("key"),
                    "key scope of " + dedupeId);
            assertScopes(first, expected, caps, dedupeId);
            if (event.authorization() && expected.decision().equals("APPROVED")) {
                approved++;
            } else if (event.authorization()) {
                rejected++;
            }
        }
        assertThat(model.expiriesNotTaken())
                .as("holds the model expired without an EXPIRED decision")
                .isEmpty();
        System.out.printf(
                "Oracle: %d approved, %d rejected, %d replays checked; outcomes %s%n",
                approved, rejected, sent.size() - firstSent.size(), outcomes);
        Map<String, Long> authorizationsByCurrency = firstSent.values().stream()
                .filter(event -> event.authorization() && !event.invalid())
                .collect(Collectors.groupingBy(Sent::currency, TreeMap::new, Collectors.counting()));
        System.out.printf(
                "Oracle: authorizations by currency %s; converted %s%n", authorizationsByCurrency, conversions);
        assertCoverage(approved, rejected, outcomes);
        assertConversionCoverage(conversions, ratesUsed);
    }

    /** A converted decision's name in the tally: its currency, its kind, and whether at the latest rate. */
    private String conversion(Sent event, ReferenceModel.Expected expected, Instant decidedAt) {
        boolean latest = ratesWritten
                .get(event.currency())
                .floorKey(decidedAt)
                .equals(expected.fx().validFrom());
        return event.currency() + " "
                + (event.authorization() ? "authorization" : event.type().toLowerCase())
                + (latest ? "" : " at its original's earlier rate");
    }

    /**
     * Every currency with a rate converts authorizations and follow-ups, CZK once its first rate came, JPY
     * at each of its rates, and follow-ups at their original's rate after it changed.
     */
    private static void assertConversionCoverage(
            Map<String, Integer> conversions, Map<String, Set<Instant>> ratesUsed) {
        for (String converted :
                List.of("JPY authorization", "KWD authorization", "CZK authorization", "JPY reversal", "KWD capture")) {
            assertThat(conversions).as("conversions of a %s", converted).containsKey(converted);
        }
        assertThat(conversions.keySet())
                .as("follow-ups converted at their original's earlier rate")
                .anyMatch(kind -> kind.endsWith("at its original's earlier rate"));
        assertThat(ratesUsed.get("JPY"))
                .as("the JPY rates authorizations were converted at")
                .hasSize(WAVES);
    }

    /**
     * The model's decision of the event at its decision time.
     *
     * @param authorizations the authorizations sent and decided before the test, by dedupe_id
     */
    private ReferenceModel.Expected decide(
            ReferenceModel model, Sent event, Instant decidedAt, Map<String, Sent> authorizations) {
        String key = event.key();
        return switch (event.type()) {
            case "AUTHORIZATION" ->
                model.authorize(
                        key,
                        event.account(),
                        event.dedupeId(),
                        event.amount(),
                        event.currency(),
                        event.holdExpiresAt(),
                        decidedAt,
                        capsByScope(key, event.account()));
            case "REVERSAL" ->
                model.reverse(key, event.dedupeId(), event.original(), event.amount(), event.currency(), decidedAt);
            case "CAPTURE" ->
                model.capture(
                        key,
                        event.account(),
                        event.dedupeId(),
                        event.original(),
                        event.amount(),
                        event.currency(),
                        event.isFinal(),
                        decidedAt);
            case "INCREMENT" -> {
                // checked at the scopes the hold counts at (its authorization's account's), or without an
                // approved original at those the increment names
                yield model.increment(
                        key,
                        event.account(),
                        event.dedupeId(),
                        event.original(),
                        event.amount(),
                        event.currency(),
                        event.holdExpiresAt(),
                        decidedAt,
                        capsByScope(key, checkedAccount(model, event, authorizations)));
            }
            default -> throw new IllegalArgumentException(event.type());
        };
    }

    /**
     * The account whose scopes the event is checked at: an increment's, where its original was counted
     * (that authorization's account), or without an approved original the one it names; any other
     * event's, the one it names.
     */
    private static String checkedAccount(ReferenceModel model, Sent event, Map<String, Sent> authorizations) {
        return event.type().equals("INCREMENT") && model.countsOriginal(event.key(), event.original())
                ? authorizations.get(event.original()).account()
                : event.account();
    }

    /** An outcome's name in the tally: a follow-up other than a reversal by its type, a capture by its kind. */
    private static String outcome(Sent event, ReferenceModel.Expected expected) {
        String verdict = expected.decision() + (expected.reason() == null ? "" : " " + expected.reason());
        return switch (event.type()) {
            case "AUTHORIZATION", "REVERSAL" -> verdict;
            case "INCREMENT" -> "INCREMENT " + verdict;
            default -> {
                if (expected.decision().equals("REJECTED")) {
                    yield "CAPTURE " + verdict;
                }
                List<String> kinds = new ArrayList<>();
                if (expected.remaining() == null) {
                    kinds.add("without an authorization");
                }
                if (expected.captured() > 0) {
                    kinds.add("from the hold");
                }
                if (expected.overCaptured() > 0 && expected.remaining() != null) {
                    kinds.add("counted anew");
                }
                if (expected.released() != null) {
                    kinds.add("the rest released");
                }
                if (!event.isFinal()) {
                    kinds.add("not final");
                }
                yield "CAPTURE " + String.join(", ", kinds);
            }
        };
    }

    private static void assertCoverage(int approved, int rejected, Map<String, Integer> outcomes) {
        assertThat(approved).as("approved").isGreaterThan(EVENTS / 20);
        assertThat(rejected).as("rejected (the limits must bite)").isGreaterThan(EVENTS / 20);
        for (String limitOutcome : List.of("REJECTED LIMIT_TXN_AMOUNT", "REJECTED LIMIT_WEEK_AMOUNT")) {
            assertThat(outcomes).as("authorizations ending %s", limitOutcome).containsKey(limitOutcome);
        }
        assertThat(outcomes.keySet()).as("a day limit bites").anyMatch(outcome -> outcome.contains(" LIMIT_DAY_"));
        for (String scopePrefix :
                List.of("REJECTED ENTITY_LIMIT_", "REJECTED ACCOUNT_CHANNEL_LIMIT_", "REJECTED ACCOUNT_LIMIT_")) {
            assertThat(outcomes.keySet())
                    .as("a limit bites at the scope of %s", scopePrefix)
                    .anyMatch(outcome -> outcome.startsWith(scopePrefix));
        }
        for (String followUpOutcome : List.of(
                "RELEASED",
                "REJECTED ORIGINAL_NOT_FOUND",
                "REJECTED ORIGINAL_NOT_APPROVED",
                "REJECTED EXCEEDS_REMAINING",
                "REJECTED NO_FX_RATE",
                "REJECTED FX_RATE_STALE",
                "REJECTED CURRENCY_MISMATCH",
                "CAPTURE REJECTED CURRENCY_MISMATCH",
                "INCREMENT REJECTED CURRENCY_MISMATCH",
                "INCREMENT APPROVED",
                "INCREMENT REJECTED LIMIT_TXN_AMOUNT",
                "INCREMENT REJECTED HOLD_CLOSED",
                "INCREMENT REJECTED ORIGINAL_NOT_APPROVED",
                "INCREMENT REJECTED ORIGINAL_NOT_FOUND",
                "CAPTURE from the hold",
                "CAPTURE from the hold, the rest released",
                "CAPTURE from the hold, not final",
                "CAPTURE from the hold, counted anew",
                "CAPTURE counted anew",
                "CAPTURE without an authorization",
                "EXPIRY EXPIRED",
                "EXPIRY EXPIRED in its authorization's batch")) {
            assertThat(outcomes).as("decisions ending %s", followUpOutcome).containsKey(followUpOutcome);
        }
    }

    /**
     * An EXPIRED decision is one the model made at or before its instant: the hold's authorization, what
     * it gave back and what is still counted, its expiry; no usage or limits.
     */
    private static void assertExpiry(DecisionMessage message, Sent authorization, ReferenceModel model) {
        String dedupeId = message.dedupeId();
        ReferenceModel.Expected expected = model.expiryOf(authorization.key(), authorization.dedupeId());
        assertThat(expected)
                .as(
                        "the model's expiry of %s by %s",
                        authorization.dedupeId(), message.json().get("decided_at"))
                .isNotNull();
        assertThat(message.decision()).isEqualTo("EXPIRED");
        assertThat(message.json().get("type").stringValue()).isEqualTo("EXPIRY");
        assertThat(message.json().get("original").stringValue()).isEqualTo(authorization.dedupeId());
        assertThat(message.json().has("usage")).as("usage of %s", dedupeId).isFalse();
        assertReleased(message, expected, dedupeId);
        assertHoldFields(message, expected, dedupeId);
        assertConversion(message, expected, dedupeId);
    }

    /** The test's audit rows in the order they were decided, expiries among them. */
    private List<DecidedRow> decidedOrder() {
        return db.query(
                """
                SELECT entity_id, channel_code, direction_code, dedupe_id, decided_at, type
                FROM risk_request_log WHERE channel_code LIKE ? AND decided_at > ?
                ORDER BY decided_at, decided_order, type = 'EXPIRY'
                """,
                (rs, row) -> new DecidedRow(
                        String.join(":", rs.getString(1), rs.getString(2), rs.getString(3)),
                        rs.getString(4),
                        rs.getObject(5, OffsetDateTime.class).toInstant(),
                        "EXPIRY".equals(rs.getString(6))),
                channelPrefix + "%",
                decidedInTheTestFrom());
    }

    /** Before the test's first decision, after those of the holds decided before it. */
    private OffsetDateTime decidedInTheTestFrom() {
        return OffsetDateTime.ofInstant(loadedAt.minus(Duration.ofHours(1)), ZoneOffset.UTC);
    }

    /**
     * What the hour buckets of the test's scope keys hold, by scope key as the model names them, by hour,
     * {amount, count}; hours with nothing counted left out.
     */
    private Map<String, Map<Instant, List<Long>>> bucketsOfEveryScopeKey() {
        Map<String, Map<Instant, List<Long>>> buckets = new TreeMap<>();
        db.query("""
                SELECT entity_id || ':' || channel_code || ':' || direction_code, bucket_ts, sum_amount, tx_count
                FROM risk_hourly_agg WHERE channel_code LIKE ? AND (sum_amount <> 0 OR tx_count <> 0)
                """, (RowCallbackHandler) rs -> bucket(buckets, rs), channelPrefix + "%");
        List<UUID> owners = new ArrayList<>(entities);
        owners.addAll(accounts);
        db.query("""
                SELECT scope || ':' || owner_id || ':' || channel_code || ':' || direction_code, bucket_ts,
                       sum_amount, tx_count
                FROM risk_scope_hourly_agg WHERE owner_id = ANY (?) AND (sum_amount <> 0 OR tx_count <> 0)
                """, (RowCallbackHandler) rs -> bucket(buckets, rs), (Object) owners.toArray(UUID[]::new));
        return buckets;
    }

    /**
     * Each hour bucket that the database and the model hold differently, named by scope key and hour, with
     * {amount, count} in the database and in the model (null where one has nothing counted).
     */
    private static List<String> bucketsDiffering(
            Map<String, Map<Instant, List<Long>>> database, Map<String, Map<Instant, List<Long>>> model) {
        Set<String> scopeKeys = new TreeSet<>(database.keySet());
        scopeKeys.addAll(model.keySet());
        List<String> differing = new ArrayList<>();
        for (String scopeKey : scopeKeys) {
            Map<Instant, List<Long>> inDatabase = database.getOrDefault(scopeKey, Map.of());
            Map<Instant, List<Long>> inModel = model.getOrDefault(scopeKey, Map.of());
            Set<Instant> hours = new TreeSet<>(inDatabase.keySet());
            hours.addAll(inModel.keySet());
            for (Instant hour : hours) {
                if (!Objects.equals(inDatabase.get(hour), inModel.get(hour))) {
                    differing.add("%s %s: database %s, model %s"
                            .formatted(scopeKey, hour, inDatabase.get(hour), inModel.get(hour)));
                }
            }
        }
        return differing;
    }

    private static void bucket(Map<String, Map<Instant, List<Long>>> buckets, ResultSet rs) throws SQLException {
        Instant hour = rs.getObject(2, LocalDateTime.class).toInstant(ZoneOffset.UTC);
        buckets.computeIfAbsent(rs.getString(1), scopeKey -> new TreeMap<>())
                .put(hour, List.of(rs.getLong(3), rs.getLong(4)));
    }

    /**
     * The scopes other than the key's with a window in force, each with its usage and limits; none at
     * all for a reversal or a capture.
     */
    private static void assertScopes(
            DecisionMessage message,
            ReferenceModel.Expected expected,
            Map<String, Map<String, ReferenceModel.Cap>> caps,
            String dedupeId) {
        if (expected.scopes().isEmpty()) {
            assertThat(message.json().has("scopes"))
                    .as("scopes of %s", dedupeId)
                    .isFalse();
            return;
        }
        JsonNode scopes = message.json().get("scopes");
        assertThat(scopes).as("scopes of %s", dedupeId).isNotNull();
        assertThat(scopes.propertyNames())
                .as("scopes of %s", dedupeId)
                .containsExactlyInAnyOrderElementsOf(expected.scopes().keySet());
        expected.scopes()
                .forEach((scope, usage) -> assertWindows(
                        scopes.get(scope).get("limits"),
                        scopes.get(scope).get("usage"),
                        usage,
                        caps.get(scope),
                        scope + " scope of " + dedupeId));
    }

    /** Usage and limits of the windows in force, and no others; txn has an amount and no usage. */
    private static void assertWindows(
            JsonNode limits,
            JsonNode usage,
            Map<String, long[]> expectedUsage,
            Map<String, ReferenceModel.Cap> caps,
            String what) {
        assertThat(limits.propertyNames())
                .as("windows in force for %s", what)
                .containsExactlyInAnyOrderElementsOf(caps.keySet());
        for (String window : ReferenceModel.WINDOWS) {
            ReferenceModel.Cap cap = caps.get(window);
            if (cap == null) {
                assertThat(usage.has(window)).as("%s usage of %s", window, what).isFalse();
                continue;
            }
            assertThat(limits.get(window).get("amount").longValue())
                    .as("%s amount limit of %s", window, what)
                    .isEqualTo(cap.amount());
            if (window.equals("txn")) {
                assertThat(limits.get(window).has("count")).isFalse();
                assertThat(usage.has(window)).isFalse();
                continue;
            }
            assertThat(limits.get(window).get("count").longValue())
                    .as("%s count limit of %s", window, what)
                    .isEqualTo(cap.count());
            assertThat(new long[] {
                        usage.get(window).get("amount").longValue(),
                        usage.get(window).get("count").longValue()
                    })
                    .as("%s usage of %s", window, what)
                    .containsExactly(expectedUsage.get(window));
        }
    }

    private static void assertReleased(DecisionMessage message, ReferenceModel.Expected expected, String dedupeId) {
        if (expected.released() == null) {
            assertThat(message.json().has("released"))
                    .as("released of %s", dedupeId)
                    .isFalse();
        } else {
            assertThat(message.json().has("released"))
                    .as("released of %s", dedupeId)
                    .isTrue();
            assertThat(new long[] {
                        message.json().get("released").get("amount").longValue(),
                        message.json().get("released").get("count").longValue()
                    })
                    .as("released of %s", dedupeId)
                    .containsExactly(expected.released());
        }
        assertOptionalNumber(message, "remaining", expected.remaining(), dedupeId);
    }

    /** captured, over_captured and hold_expires_at: each present exactly when the model has one. */
    private static void assertHoldFields(DecisionMessage message, ReferenceModel.Expected expected, String dedupeId) {
        assertOptionalNumber(message, "captured", expected.captured(), dedupeId);
        assertOptionalNumber(message, "over_captured", expected.overCaptured(), dedupeId);
        assertThat(
                        message.json().has("hold_expires_at")
                                ? Instant.parse(
                                        message.json().get("hold_expires_at").stringValue())
                                : null)
                .as("hold_expires_at of %s", dedupeId)
                .isEqualTo(expected.holdExpiresAt());
    }

    /** counted_amount and fx: present exactly when the model converted, with its amount and rate. */
    private static void assertConversion(DecisionMessage message, ReferenceModel.Expected expected, String dedupeId) {
        assertOptionalNumber(message, "counted_amount", expected.countedAmount(), dedupeId);
        JsonNode fx = message.json().get("fx");
        if (expected.fx() == null) {
            assertThat(fx).as("fx of %s", dedupeId).isNull();
            return;
        }
        assertThat(fx).as("fx of %s", dedupeId).isNotNull();
        assertThat(fx.get("currency").stringValue())
                .as("fx currency of %s", dedupeId)
                .isEqualTo(expected.fx().currency());
        assertThat(new BigDecimal(fx.get("rate").stringValue()))
                .as("fx rate of %s", dedupeId)
                .isEqualByComparingTo(expected.fx().rate());
        assertThat(Instant.parse(fx.get("valid_from").stringValue()))
                .as("fx valid_from of %s", dedupeId)
                .isEqualTo(expected.fx().validFrom());
    }

    private static void assertOptionalNumber(DecisionMessage message, String field, Long expected, String dedupeId) {
        assertThat(message.json().has(field) ? message.json().get(field).longValue() : null)
                .as("%s of %s", field, dedupeId)
                .isEqualTo(expected);
    }

    private static void assertAllAgree(List<DecisionMessage> messagesOfOneDedupe) {
        DecisionMessage first = messagesOfOneDedupe.get(0);
        for (DecisionMessage message : messagesOfOneDedupe) {
            assertThat(message.withoutReplayedFlag()).isEqualTo(first.withoutReplayedFlag());
        }
    }

    /** The account entity i belongs to: the first fifteen entities belong to the accounts in turn. */
    private UUID accountOf(UUID entity) {
        int index = entities.indexOf(entity);
        return index < ENTITIES_WITH_ACCOUNT ? accounts.get(index % ACCOUNTS) : null;
    }

    /**
     * The caps at each scope an event of the business key naming the account (null: none) counts at, by
     * scope: the windows in force there.
     */
    private Map<String, Map<String, ReferenceModel.Cap>> capsByScope(String businessKey, String accountId) {
        String[] key = businessKey.split(":");
        UUID entity = UUID.fromString(key[0]);
        Map<String, Map<String, ReferenceModel.Cap>> caps = new LinkedHashMap<>();
        caps.put("key", capsAt("key", entity, key[1], key[2]));
        caps.put("entity", capsAt("entity", entity, "*", key[2]));
        if (accountId != null) {
            UUID account = UUID.fromString(accountId);
            caps.put("account_channel", capsAt("account_channel", account, key[1], key[2]));
            caps.put("account", capsAt("account", account, "*", key[2]));
        }
        return caps;
    }

    /** For each window, the most specific row of the scope that matches the scope key, the seeded ones included. */
    private Map<String, ReferenceModel.Cap> capsAt(String scope, UUID owner, String channel, String direction) {
        Map<String, LimitRow> winners = new HashMap<>();
        List<LimitRow> rows = new ArrayList<>(SEEDED_DEFAULTS);
        rows.addAll(limitRows);
        for (LimitRow row : rows) {
            if (row.matches(scope, owner, channel, direction)) {
                winners.merge(
                        row.window(),
                        row,
                        (current, candidate) -> candidate.specificity() > current.specificity() ? candidate : current);
            }
        }
        Map<String, ReferenceModel.Cap> caps = new HashMap<>();
        winners.forEach((window, row) -> caps.put(window, new ReferenceModel.Cap(row.amount(), row.count())));
        return caps;
    }

    /**
     * Limits at every scope: per channel and direction at the key scope, with one entity's override; per
     * entity at the entity scope, which must name the entity or hold every entity of the database; per
     * channel and per account at the account-channel scope; per account at the account scope. The txn
     * row's count is ignored.
     */
    private void insertLimits() {
        UUID overridden = entities.get(0);
        for (String channel : channels) {
            limitRows.add(new LimitRow("key", channel, "OUT", null, "txn", 2_500, 1));
            limitRows.add(new LimitRow("key", channel, "OUT", null, "24h", 20_000, 12));
            limitRows.add(new LimitRow("key", channel, "OUT", null, "7d", 60_000, 40));
            limitRows.add(new LimitRow("key", channel, "OUT", null, "30d", 150_000, 100));
            limitRows.add(new LimitRow("key", channel, "OUT", null, "month", 140_000, 90));
            limitRows.add(new LimitRow("key", channel, "IN", null, "24h", 10_000, 8));
            limitRows.add(new LimitRow("key", channel, "IN", null, "day", 6_000, 6));
            limitRows.add(new LimitRow("key", channel, "*", null, "week", 15_000, 30));
            limitRows.add(new LimitRow("key", channel, "*", overridden, "24h", 3_000, 5));
            limitRows.add(new LimitRow("key", channel, "*", overridden, "day", 4_000, 6));
        }
        for (int i = 0; i < ENTITIES; i++) {
            if (i % 2 == 0) {
                limitRows.add(new LimitRow("entity", "*", "*", entities.get(i), "24h", 25_000, 20));
            } else if (i % 4 == 1) {
                limitRows.add(new LimitRow("entity", "*", "OUT", entities.get(i), "day", 9_000, 12));
            }
        }
        limitRows.add(new LimitRow("account_channel", channels.get(0), "OUT", null, "day", 8_000, 10));
        limitRows.add(new LimitRow("account_channel", "*", "*", accounts.get(1), "24h", 6_000, 8));
        limitRows.add(new LimitRow("account_channel", channels.get(0), "*", accounts.get(1), "day", 5_000, 10));
        for (UUID account : accounts) {
            limitRows.add(new LimitRow("account", "*", "*", account, "24h", 40_000, 40));
        }
        limitRows.add(new LimitRow("account", "*", "OUT", accounts.get(2), "7d", 30_000, 30));
        String insert = "INSERT INTO risk_limit (scope, channel, direction, entity_id, account_id, window_name,"
                + " max_amount, max_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
        for (LimitRow row : limitRows) {
            boolean ownedByAccount = row.scope().startsWith("account");
            db.update(
                    insert,
                    row.scope(),
                    row.channel(),
                    row.direction(),
                    ownedByAccount ? null : row.owner(),
                    ownedByAccount ? row.owner() : null,
                    row.window(),
                    row.amount(),
                    row.count());
        }
    }

    /**
     * Half of the entities get buckets inside and just outside each window, relative to the current hour:
     * the rolling windows' first hours, and the first hour of the day, week and month in the zone; on
     * their first channel, at their entity scope (as if counted there from the first event on), and for
     * the accounts of the first of them at the account's channel and the account too.
     */
    private void loadHistory(ReferenceModel model) {
        Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS);
        Map<Instant, long[]> rows = new TreeMap<>();
        for (long[] row : new long[][] {{30, 15_000, 10}, {200, 50_000, 30}, {719, 40_000, 20}, {720, 99_999, 99}}) {
            rows.merge(hour.minus(Duration.ofHours(row[0])), new long[] {row[1], row[2]}, DeciderOracleIT::sum);
        }
        for (String window : List.of("day", "week", "month")) {
            Instant start = model.since(window, hour);
            rows.merge(start, new long[] {1_000, 1}, DeciderOracleIT::sum);
            rows.merge(start.minus(Duration.ofHours(1)), new long[] {700, 1}, DeciderOracleIT::sum);
        }
        String channel = channels.get(0);
        for (String direction : List.of("IN", "OUT")) {
            for (int i = 0; i < entities.size(); i += 2) {
                UUID entity = entities.get(i);
                String key = Events.businessKey(entity, channel, direction);
                rows.forEach((bucket, row) -> {
                    db.update(
                            "INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts,"
                                    + " sum_amount, tx_count) VALUES (?, ?, ?, ?, ?, ?)",
                            entity,
                            channel,
                            direction,
                            LocalDateTime.ofInstant(bucket, ZoneOffset.UTC),
                            row[0],
                            row[1]);
                    model.history(key, bucket, row[0], row[1]);
                });
                scopeHistory(model, rows, "entity", entity, "*", direction);
            }
            for (UUID account : List.of(accounts.get(0), accounts.get(2))) {
                scopeHistory(model, rows, "account_channel", account, channel, direction);
                scopeHistory(model, rows, "account", account, "*", direction);
            }
        }
    }

    private void scopeHistory(
            ReferenceModel model,
            Map<Instant, long[]> rows,
            String scope,
            UUID owner,
            String channel,
            String direction) {
        String scopeKey = String.join(":", scope, owner.toString(), channel, direction);
        rows.forEach((bucket, row) -> {
            db.update(
                    "INSERT INTO risk_scope_hourly_agg (scope, owner_id, channel_code, direction_code, bucket_ts,"
                            + " sum_amount, tx_count) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    scope,
                    owner,
                    channel,
                    direction,
                    LocalDateTime.ofInstant(bucket, ZoneOffset.UTC),
                    row[0],
                    row[1]);
            model.history(scopeKey, bucket, row[0], row[1]);
        });
    }

    /**
     * Holds decided before the test, as the decider files them: an audit row and a ledger, counted at
     * every scope of the key and the entity's account, the authorization 31 hours ago (outside the 24-hour
     * window) and an increment 3 hours ago; two per entity on the hold channel, in one direction, half of
     * them expiring within seconds, the others in two days. A release from one takes its latest part
     * first, which the windows and the buckets tell apart from its earliest.
     */
    private Map<String, Sent> loadHoldsDecidedBefore(ReferenceModel model, OracleEvents events) {
        // in one transaction, as the decider files a hold: the service's sweep runs meanwhile, and a hold
        // it expired before its buckets were in would release from buckets not there yet
        return new TransactionTemplate(new DataSourceTransactionManager(Objects.requireNonNull(db.getDataSource())))
                .execute(transaction -> fileHoldsDecidedBefore(model, events));
    }

    private Map<String, Sent> fileHoldsDecidedBefore(ReferenceModel model, OracleEvents events) {
        Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS);
        Instant authorized = hour.minus(Duration.ofHours(31));
        Instant incremented = hour.minus(Duration.ofHours(3));
        String channel = channels.get(1);
        Random random = new Random(SEED);
        Map<String, Sent> holds = new LinkedHashMap<>();
        for (int i = 0; i < ENTITIES * 2; i++) {
            UUID entity = entities.get(i / 2);
            String direction = i / 2 % 2 == 0 ? "OUT" : "IN";
            UUID account = accountOf(entity);
            UUID dedupeId = UUID.randomUUID();
            long amount = 300 + random.nextInt(1_500);
            long increment = 100 + random.nextInt(600);
            Instant expiresAt = (i % 2 == 0
                            ? Instant.now().plusMillis(2_000 + random.nextInt(4_000))
                            : Instant.now().plus(Duration.ofDays(2)))
                    .truncatedTo(ChronoUnit.MILLIS);
            db.update(
                    """
                    INSERT INTO risk_request_log (entity_id, channel_code, direction_code, dedupe_id, bucket_ts,
                                                  decision, amount, currency, decided_at, decided_order, type,
                                                  hold_expires_at, account_id)
                    VALUES (?, ?, ?, ?, ?, 'APPROVED', ?, 'USD', ?, 0, 'AUTHORIZATION', ?, ?)
                    """,
                    entity,
                    channel,
                    direction,
                    dedupeId,
                    LocalDateTime.ofInstant(authorized, ZoneOffset.UTC),
                    amount,
                    OffsetDateTime.ofInstant(authorized.plus(Duration.ofMinutes(10)), ZoneOffset.UTC),
                    OffsetDateTime.ofInstant(expiresAt, ZoneOffset.UTC),
                    account);
            db.update(
                    """
                    INSERT INTO risk_authorization_ledger (entity_id, channel_code, direction_code, dedupe_id,
                                                           bucket_ts, account_id, parts, captured, status,
                                                           expires_at, count_hour)
                    VALUES (?, ?, ?, ?, ?, ?, CAST(? AS json), 0, 'OPEN', ?, ?)
                    """,
                    entity,
                    channel,
                    direction,
                    dedupeId,
                    LocalDateTime.ofInstant(authorized, ZoneOffset.UTC),
                    account,
                    """
                    [{"kind": "AUTHORIZATION", "hour": "%s", "amount": %d, "released": 0},
                     {"kind": "INCREMENT", "hour": "%s", "amount": %d, "released": 0}]""".formatted(authorized, amount, incremented, increment),
                    OffsetDateTime.ofInstant(expiresAt, ZoneOffset.UTC),
                    LocalDateTime.ofInstant(authorized, ZoneOffset.UTC));
            String key = Events.businessKey(entity, channel, direction);
            ReferenceModel.scopeKeys(key, account == null ? null : account.toString())
                    .forEach((scope, scopeKey) -> {
                        addToBucket(scope, scopeKey, authorized, amount, 1);
                        addToBucket(scope, scopeKey, incremented, increment, 0);
                    });
            model.heldBefore(
                    key,
                    account == null ? null : account.toString(),
                    dedupeId.toString(),
                    List.of(
                            new ReferenceModel.HourAmount(authorized, amount),
                            new ReferenceModel.HourAmount(incremented, increment)),
                    expiresAt);
            Sent hold = new Sent(
                    key,
                    dedupeId.toString(),
                    null,
                    amount,
                    OracleEvents.LIMIT_CURRENCY,
                    false,
                    account == null ? null : account.toString(),
                    "AUTHORIZATION",
                    null,
                    true,
                    expiresAt);
            events.heldBefore(hold);
            holds.put(hold.dedupeId(), hold);
        }
        return holds;
    }

    /** Adds to the hour bucket of a scope key named as the model names it. */
    private void addToBucket(String scope, String scopeKey, Instant hour, long amount, long count) {
        String[] name = scopeKey.split(":");
        LocalDateTime bucket = LocalDateTime.ofInstant(hour, ZoneOffset.UTC);
        if (scope.equals("key")) {
            // an upsert through the view, which takes no ON CONFLICT
            db.update("""
                    WITH added (entity_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count) AS (
                        VALUES (CAST(? AS uuid), CAST(? AS text), CAST(? AS text), CAST(? AS timestamp),
                                CAST(? AS bigint), CAST(? AS integer))
                    ), updated AS (
                        UPDATE risk_hourly_agg bucket
                        SET sum_amount = bucket.sum_amount + added.sum_amount,
                            tx_count   = bucket.tx_count + added.tx_count
                        FROM added
                        WHERE (bucket.entity_id, bucket.channel_code, bucket.direction_code, bucket.bucket_ts)
                            = (added.entity_id, added.channel_code, added.direction_code, added.bucket_ts)
                        RETURNING 1
                    )
                    INSERT INTO risk_hourly_agg (entity_id, channel_code, direction_code, bucket_ts, sum_amount,
                                                 tx_count)
                    SELECT * FROM added WHERE NOT EXISTS (SELECT FROM updated)
                    """, UUID.fromString(name[0]), name[1], name[2], bucket, amount, count);
        } else {
            db.update("""
                    WITH added (scope, owner_id, channel_code, direction_code, bucket_ts, sum_amount, tx_count) AS (
                        VALUES (CAST(? AS text), CAST(? AS uuid), CAST(? AS text), CAST(? AS text),
                                CAST(? AS timestamp), CAST(? AS bigint), CAST(? AS integer))
                    ), updated AS (
                        UPDATE risk_scope_hourly_agg bucket
                        SET sum_amount = bucket.sum_amount + added.sum_amount,
                            tx_count   = bucket.tx_count + added.tx_count
                        FROM added
                        WHERE (bucket.scope, bucket.owner_id, bucket.channel_code, bucket.direction_code,
                               bucket.bucket_ts)
                            = (added.scope, added.owner_id, added.channel_code, added.direction_code,
                               added.bucket_ts)
                        RETURNING 1
                    )
                    INSERT INTO risk_scope_hourly_agg (scope, owner_id, channel_code, direction_code, bucket_ts,
                                                       sum_amount, tx_count)
                    SELECT * FROM added WHERE NOT EXISTS (SELECT FROM updated)
                    """, scope, UUID.fromString(name[1]), name[2], name[3], bucket, amount, count);
        }
    }

    private static long[] sum(long[] a, long[] b) {
        return new long[] {a[0] + b[0], a[1] + b[1]};
    }
}
