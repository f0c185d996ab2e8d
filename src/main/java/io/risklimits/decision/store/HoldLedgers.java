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
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
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

    // Whether any open hold is due by the batch's decision time, at any key: the left end of the expiry index.
    private static final String ANY_HOLD_DUE = """
            EXISTS (SELECT FROM risk_authorization_ledger any_due
                    WHERE any_due.status = 'OPEN' AND any_due.expires_at IS NOT NULL
                      AND any_due.expires_at <= (SELECT risk_batch_decided_at()))""";

    // The open holds counted at these entity and account scopes that are due by the batch's decision time
    // (the clock its last lock function read, risk_batch_decided_at): the batch expires its own keys' and
    // leaves the others' out of the usage it decides with. Each scope key is one probe (each LATERAL
    // subquery is planned on its own, OFFSET 0): joined with every due hold instead, a batch would read all
    // the holds due at other keys, as many as a sweep that fell behind leaves. Which index a probe takes is
    // the planner's choice: with the statistics of a ledger table that has rows, the entity's (account's)
    // index of open holds; with those of an empty one (a new deployment, until autovacuum first analyzes
    // the table), a plan may probe the index of every open hold instead, and read every due hold for each
    // scope key until the next analyze. The probes run only if some hold is due anywhere (ANY_HOLD_DUE,
    // one probe of the expiry index, evaluated once for the statement), so a deployment without holds, or
    // with none due, pays one probe a batch, not one per scope key. An account scope key names the account
    // and direction; its channel is left to the caller.
    static final String SELECT_DUE = """
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
                                        AND ledger.expires_at <= (SELECT risk_batch_decided_at())
                                      OFFSET 0) AS due
                  UNION ALL
                  SELECT due.*
                  FROM unnest(CAST(:accountIds AS uuid[]), CAST(:accountDirections AS text[]))
                       AS account (account_id, direction_code)
                  CROSS JOIN LATERAL (SELECT ledger.*
                                      FROM risk_authorization_ledger ledger
                                      WHERE ledger.account_id = account.account_id
                                        AND ledger.direction_code = account.direction_code
                                        AND ledger.status = 'OPEN' AND ledger.expires_at IS NOT NULL
                                        AND ledger.expires_at <= (SELECT risk_batch_decided_at())
                                      OFFSET 0) AS due) AS ledger
            CROSS JOIN LATERAL (SELECT original.amount, original.currency, original.counted_amount, original.fx_currency,
                                       original.fx_rate, original.fx_valid_from
                                FROM risk_request_log original
                                WHERE original.entity_id = ledger.entity_id
                                  AND original.channel_code = ledger.channel_code
                                  AND original.direction_code = ledger.direction_code
                                  AND original.dedupe_id = ledger.dedupe_id
                                OFFSET 0) AS authorization_row
            WHERE %2$s
            """.formatted(LEDGER_COLUMNS, ANY_HOLD_DUE);

    // The ledgers a batch begins: its holds, and the authorizations known from the audit log alone that a
    // follow-up of the batch acted on. expiry_published is false for one the batch also expired, until its
    // EXPIRED decision was sent.
    private static final String INSERT_LEDGERS = """
            INSERT INTO risk_authorization_ledger
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
            """;

    // The ledgers read under the batch's locks, as its decisions left them; how many were found, which the
    // batch checks (a row gone from under the locks fails the batch rather than lose what it counts).
    // expiry_published turns false with the write that expires a hold, and true again only when its
    // EXPIRED decision was sent.
    private static final String UPDATE_LEDGERS = """
            WITH updated AS (
                UPDATE risk_authorization_ledger ledger
                SET parts            = saved.parts,
                    captured         = saved.captured,
                    status           = saved.status,
                    expires_at       = saved.expires_at,
                    count_hour       = saved.count_hour,
                    own_counted      = saved.own_counted,
                    own_captured     = saved.own_captured,
                    expiry_published = ledger.expiry_published AND NOT saved.expired_now
                FROM unnest(CAST(:entityIds AS uuid[]), CAST(:channels AS text[]), CAST(:directions AS text[]),
                            CAST(:dedupeIds AS uuid[]), CAST(:parts AS json[]), CAST(:captured AS bigint[]),
                            CAST(:statuses AS text[]), CAST(:expiresAts AS timestamptz[]),
                            CAST(:countHours AS timestamp[]), CAST(:ownCounted AS bigint[]),
                            CAST(:ownCaptured AS bigint[]), CAST(:expiredNow AS boolean[]))
                     AS saved (entity_id, channel_code, direction_code, dedupe_id, parts, captured, status,
                               expires_at, count_hour, own_counted, own_captured, expired_now)
                WHERE (ledger.entity_id, ledger.channel_code, ledger.direction_code, ledger.dedupe_id)
                    = (saved.entity_id, saved.channel_code, saved.direction_code, saved.dedupe_id)
                RETURNING 1
            )
            SELECT count(*) FROM updated
            """;

    /**
     * A ledger as a batch leaves it, with the authorization it belongs to; stored: whether its row was there
     * before the batch (updated), or not (inserted).
     */
    record Saved(RequestId authorization, UUID accountId, HoldLedger ledger, boolean expiredNow, boolean stored) {

        /** The same row, as a later decision of the batch left it. */
        Saved changed(HoldLedger after, boolean expiredNowAfter) {
            return new Saved(authorization, accountId, after, expiredNowAfter, stored);
        }
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
                                    RequestLogRow.conversion(rs),
                                    true));
                }
            }
            return due;
        });
    }

    /** Adds the write of the ledgers as the batch leaves them to the round trip: new ones inserted, others updated. */
    void saveAll(Collection<Saved> ledgers, RoundTrip trip) {
        List<Saved> inserted = ledgers.stream().filter(saved -> !saved.stored()).toList();
        List<Saved> updated = ledgers.stream().filter(Saved::stored).toList();
        if (!inserted.isEmpty()) {
            trip.execute(
                    INSERT_LEDGERS,
                    columns(inserted)
                            .add(
                                    "buckets",
                                    saved -> utcTimestamp(saved.ledger()
                                                    .parts()
                                                    .get(0)
                                                    .hour())
                                            .toString(),
                                    String[]::new)
                            .add("accountIds", Saved::accountId, UUID[]::new)
                            .parameters());
        }
        if (!updated.isEmpty()) {
            trip.executeChanging(
                    UPDATE_LEDGERS,
                    columns(updated).parameters(),
                    updated.size(),
                    "updating the ledgers read under the locks");
        }
    }

    private static ColumnArrays<Saved> columns(List<Saved> rows) {
        return ColumnArrays.keyed(rows, saved -> saved.authorization().businessKey())
                .add("dedupeIds", saved -> saved.authorization().dedupeId(), UUID[]::new)
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

    static RequestId requestId(ResultSet rs) throws SQLException {
        return new RequestId(
                new BusinessKey(
                        rs.getObject("entity_id", UUID.class),
                        rs.getString("channel_code"),
                        Direction.valueOf(rs.getString("direction_code"))),
                rs.getObject("dedupe_id", UUID.class));
    }
}
