package io.risklimits.decision.store;

import static io.risklimits.decision.store.SqlTime.instantFromTimestamptz;
import static io.risklimits.decision.store.SqlTime.instantFromUtcTimestamp;
import static io.risklimits.decision.store.SqlTime.timestamptzText;
import static io.risklimits.decision.store.SqlTime.utcTimestamp;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Direction;
import io.risklimits.decision.Scope;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.hold.HoldLedger;
import io.risklimits.decision.hold.HoldStatus;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import org.springframework.jdbc.core.JdbcOperations;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * risk_authorization_ledger: what is counted of each approved authorization that is a hold, or that a
 * follow-up acted on. Read and written under the business key's lock (and the lock of every scope key the
 * authorization counts at, for a write that moves usage), so what a batch reads of a ledger is final until
 * it commits.
 */
@Repository
class HoldLedgers {

    /** The ledger columns every read names, prefixed ledger. */
    static final String LEDGER_COLUMNS = """
            ledger.parts, ledger.captured, ledger.status, ledger.expires_at, ledger.count_hour, ledger.own_counted,
            ledger.own_captured""";

    // The open holds counted at these entity and account scopes that are due by the batch's decision time
    // (the clock its last lock function read, risk_batch_decided_at): the batch expires its own keys' and
    // leaves the others' out of the usage it decides with. Each scope key is one probe of a partial index
    // of the open holds, so a batch with none due
    // pays a probe per scope key. An account scope key names the account and direction; its channel is
    // left to the caller.
    private static final String SELECT_DUE = """
            SELECT ledger.entity_id, ledger.channel_code, ledger.direction_code, ledger.dedupe_id,
                   ledger.account_id, %1$s, authorization_row.amount, authorization_row.currency,
                   authorization_row.counted_amount, authorization_row.fx_currency, authorization_row.fx_rate,
                   authorization_row.fx_valid_from
            FROM (SELECT due.*
                  FROM unnest(CAST(:entityIds AS uuid[]), CAST(:entityDirections AS text[]))
                       AS entity (entity_id, direction_code)
                  CROSS JOIN LATERAL (SELECT ledger.*
                                      FROM risk_authorization_ledger ledger
                                      WHERE ledger.entity_id = entity.entity_id
                                        AND ledger.direction_code = entity.direction_code
                                        AND ledger.status = 'OPEN' AND ledger.expires_at IS NOT NULL
                                        AND ledger.expires_at <= (SELECT risk_batch_decided_at())) AS due
                  UNION ALL
                  SELECT due.*
                  FROM unnest(CAST(:accountIds AS uuid[]), CAST(:accountDirections AS text[]))
                       AS account (account_id, direction_code)
                  CROSS JOIN LATERAL (SELECT ledger.*
                                      FROM risk_authorization_ledger ledger
                                      WHERE ledger.account_id = account.account_id
                                        AND ledger.direction_code = account.direction_code
                                        AND ledger.status = 'OPEN' AND ledger.expires_at IS NOT NULL
                                        AND ledger.expires_at <= (SELECT risk_batch_decided_at())) AS due) AS ledger
            CROSS JOIN LATERAL (SELECT original.amount, original.currency, original.counted_amount, original.fx_currency,
                                       original.fx_rate, original.fx_valid_from
                                FROM risk_request_log original
                                WHERE original.entity_id = ledger.entity_id
                                  AND original.channel_code = ledger.channel_code
                                  AND original.direction_code = ledger.direction_code
                                  AND original.dedupe_id = ledger.dedupe_id
                                OFFSET 0) AS authorization_row
            """.formatted(LEDGER_COLUMNS);

    // A batch's ledgers as its decisions left them, one row per authorization. expiry_published turns
    // false with the write that expires a hold, and true again only when its EXPIRED decision was sent.
    private static final String SAVE_LEDGERS = """
            INSERT INTO risk_authorization_ledger AS ledger
                   (entity_id, channel_code, direction_code, dedupe_id, bucket_ts, account_id,
                    parts, captured, status, expires_at, count_hour, own_counted, own_captured, expiry_published)
            SELECT entity_id, channel_code, direction_code, dedupe_id, bucket_ts, account_id,
                   parts, captured, status, expires_at, count_hour, own_counted, own_captured, NOT expired_now
            FROM unnest(CAST(:entityIds AS uuid[]), CAST(:channels AS text[]), CAST(:directions AS text[]),
                        CAST(:dedupeIds AS uuid[]), CAST(:buckets AS timestamp[]), CAST(:accountIds AS uuid[]),
                        CAST(:parts AS json[]), CAST(:captured AS bigint[]), CAST(:statuses AS text[]),
                        CAST(:expiresAts AS timestamptz[]), CAST(:countHours AS timestamp[]),
                        CAST(:ownCounted AS bigint[]), CAST(:ownCaptured AS bigint[]),
                        CAST(:expiredNow AS boolean[]))
                 AS saved (entity_id, channel_code, direction_code, dedupe_id, bucket_ts, account_id,
                           parts, captured, status, expires_at, count_hour, own_counted, own_captured,
                           expired_now)
            ON CONFLICT (entity_id, channel_code, direction_code, dedupe_id)
            DO UPDATE SET parts            = EXCLUDED.parts,
                          captured         = EXCLUDED.captured,
                          status           = EXCLUDED.status,
                          expires_at       = EXCLUDED.expires_at,
                          count_hour       = EXCLUDED.count_hour,
                          own_counted      = EXCLUDED.own_counted,
                          own_captured     = EXCLUDED.own_captured,
                          expiry_published = ledger.expiry_published AND EXCLUDED.expiry_published
            """;

    // The business keys of the open holds due now, the earliest first: what the sweep expires next.
    private static final String SELECT_KEYS_WITH_DUE_HOLDS = """
            SELECT DISTINCT entity_id, channel_code, direction_code
            FROM (SELECT entity_id, channel_code, direction_code
                  FROM risk_authorization_ledger
                  WHERE status = 'OPEN' AND expires_at IS NOT NULL AND expires_at <= clock_timestamp()
                  ORDER BY expires_at
                  LIMIT :limit) AS due
            """;

    // The authorizations whose expiry was filed but not yet sent, the earliest first.
    private static final String SELECT_UNPUBLISHED_EXPIRIES = """
            SELECT entity_id, channel_code, direction_code, dedupe_id
            FROM risk_authorization_ledger
            WHERE NOT expiry_published
            ORDER BY expires_at
            LIMIT :limit
            """;

    private static final String MARK_PUBLISHED = """
            UPDATE risk_authorization_ledger
            SET expiry_published = true
            WHERE (entity_id, channel_code, direction_code, dedupe_id) IN (
                SELECT * FROM unnest(CAST(:entityIds AS uuid[]), CAST(:channels AS text[]),
                                     CAST(:directions AS text[]), CAST(:dedupeIds AS uuid[])))
              AND NOT expiry_published
            """;

    // the oldest open hold not yet expired, how long ago it was due (0 when none is due)
    private static final String SWEEP_LAG = """
            SELECT coalesce(extract(epoch FROM clock_timestamp() - min(expires_at)), 0)
            FROM risk_authorization_ledger
            WHERE status = 'OPEN' AND expires_at IS NOT NULL AND expires_at <= clock_timestamp()
            """;

    private static final String OPEN_HOLDS = """
            SELECT count(*) FROM risk_authorization_ledger WHERE status = 'OPEN' AND expires_at IS NOT NULL
            """;

    /** A ledger as a batch leaves it, with the authorization it belongs to. */
    record Saved(RequestId authorization, UUID accountId, HoldLedger ledger, boolean expiredNow) {}

    private final NamedParameterJdbcTemplate named;

    HoldLedgers(JdbcOperations jdbc) {
        this.named = new NamedParameterJdbcTemplate(jdbc);
    }

    /**
     * Adds to the round trip the read of the open holds due now that count at these scope keys (entity
     * and account scopes; the others are left out): by authorization, with its ledger.
     */
    Supplier<Map<RequestId, StoredOriginal>> findDue(Collection<ScopeKey> scopeKeys, RoundTrip trip) {
        List<ScopeKey> entities =
                scopeKeys.stream().filter(key -> key.scope() == Scope.ENTITY).toList();
        List<ScopeKey> accounts = scopeKeys.stream()
                .filter(key -> key.scope().ownedByAccount())
                .distinct()
                .toList();
        MapSqlParameterSource parameters = new MapSqlParameterSource()
                .addValue("entityIds", entities.stream().map(ScopeKey::owner).toArray(UUID[]::new))
                .addValue(
                        "entityDirections",
                        entities.stream().map(key -> key.direction().name()).toArray(String[]::new))
                .addValue("accountIds", accounts.stream().map(ScopeKey::owner).toArray(UUID[]::new))
                .addValue(
                        "accountDirections",
                        accounts.stream().map(key -> key.direction().name()).toArray(String[]::new));
        return trip.query(SELECT_DUE, parameters, rs -> {
            Map<RequestId, StoredOriginal> due = new LinkedHashMap<>();
            while (rs.next()) {
                RequestId id = requestId(rs);
                if (!due.containsKey(id)) {
                    due.put(
                            id,
                            new StoredOriginal(
                                    ledger(rs),
                                    rs.getObject("account_id", UUID.class),
                                    rs.getLong("amount"),
                                    rs.getString("currency"),
                                    RequestLogRow.conversion(rs)));
                }
            }
            return due;
        });
    }

    /** Adds the write of the ledgers as the batch leaves them to the round trip. */
    void saveAll(Collection<Saved> ledgers, RoundTrip trip) {
        if (ledgers.isEmpty()) {
            return;
        }
        List<Saved> rows = List.copyOf(ledgers);
        ColumnArrays<Saved> parameters = ColumnArrays.keyed(
                        rows, saved -> saved.authorization().businessKey())
                .add("dedupeIds", saved -> saved.authorization().dedupeId(), UUID[]::new)
                .add(
                        "buckets",
                        saved -> utcTimestamp(saved.ledger().parts().get(0).hour())
                                .toString(),
                        String[]::new)
                .add("accountIds", Saved::accountId, UUID[]::new)
                .add("parts", saved -> LedgerParts.json(saved.ledger().parts()), String[]::new)
                .add("captured", saved -> saved.ledger().captured(), Long[]::new)
                .add("statuses", saved -> saved.ledger().status().name(), String[]::new)
                .add("expiresAts", saved -> timestamptzText(saved.ledger().expiresAt()), String[]::new)
                .add(
                        "countHours",
                        saved -> saved.ledger().countHour() == null
                                ? null
                                : utcTimestamp(saved.ledger().countHour()).toString(),
                        String[]::new)
                .add("ownCounted", saved -> own(saved, HoldLedger.OwnCurrency::counted), Long[]::new)
                .add("ownCaptured", saved -> own(saved, HoldLedger.OwnCurrency::captured), Long[]::new)
                .add("expiredNow", Saved::expiredNow, Boolean[]::new);
        trip.execute(SAVE_LEDGERS, parameters.parameters());
    }

    /** The business keys of the open holds due now, of the earliest limit of them. */
    List<BusinessKey> keysWithDueHolds(int limit) {
        return named.query(
                SELECT_KEYS_WITH_DUE_HOLDS,
                new MapSqlParameterSource("limit", limit),
                (rs, row) -> new BusinessKey(
                        rs.getObject("entity_id", UUID.class),
                        rs.getString("channel_code"),
                        Direction.valueOf(rs.getString("direction_code"))));
    }

    /** The authorizations whose expiry was filed and not yet sent, the earliest limit of them. */
    List<RequestId> unpublishedExpiries(int limit) {
        return named.query(
                SELECT_UNPUBLISHED_EXPIRIES, new MapSqlParameterSource("limit", limit), (rs, row) -> requestId(rs));
    }

    /** Records that these authorizations' expiries were sent. */
    void markPublished(List<RequestId> authorizations) {
        if (authorizations.isEmpty()) {
            return;
        }
        named.update(
                MARK_PUBLISHED,
                ColumnArrays.keyed(authorizations, RequestId::businessKey)
                        .add("dedupeIds", RequestId::dedupeId, UUID[]::new)
                        .parameters());
    }

    /** How long ago the oldest open hold not yet expired was due, in seconds; 0 when none is. */
    double sweepLagSeconds() {
        Double lag = named.getJdbcOperations().queryForObject(SWEEP_LAG, Double.class);
        return lag == null ? 0 : lag;
    }

    /** The open holds. */
    long openHolds() {
        Long open = named.getJdbcOperations().queryForObject(OPEN_HOLDS, Long.class);
        return open == null ? 0 : open;
    }

    /** The ledger of the columns {@link #LEDGER_COLUMNS} names. */
    static HoldLedger ledger(ResultSet rs) throws SQLException {
        Long ownCounted = rs.getObject("own_counted", Long.class);
        return new HoldLedger(
                LedgerParts.parts(rs.getString("parts")),
                rs.getLong("captured"),
                HoldStatus.valueOf(rs.getString("status")),
                instantFromTimestamptz(rs, "expires_at"),
                instantFromUtcTimestamp(rs, "count_hour"),
                ownCounted == null ? null : new HoldLedger.OwnCurrency(ownCounted, rs.getLong("own_captured")));
    }

    // one of a ledger's own-currency figures; null when it has none
    private static Long own(Saved saved, ToLongFunction<HoldLedger.OwnCurrency> figure) {
        return saved.ledger().own() == null
                ? null
                : figure.applyAsLong(saved.ledger().own());
    }

    private static RequestId requestId(ResultSet rs) throws SQLException {
        return new RequestId(
                new BusinessKey(
                        rs.getObject("entity_id", UUID.class),
                        rs.getString("channel_code"),
                        Direction.valueOf(rs.getString("direction_code"))),
                rs.getObject("dedupe_id", UUID.class));
    }
}
