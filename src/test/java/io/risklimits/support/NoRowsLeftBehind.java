package io.risklimits.support;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Fails a test class that leaves rows of its own in the database the whole test run shares: the audit rows,
 * hour buckets (at every scope) and authorization ledgers of an entity or account that had none before the
 * class, and the rates of risk_fx_rate it added. The classes after it would see them: a hold sweep expires
 * a left hold and publishes its EXPIRED decision, a left rate converts another class's events.
 * Rows written for an owner that had rows in that table before the class are not counted as its own.
 */
public final class NoRowsLeftBehind implements BeforeAllCallback, AfterAllCallback {

    // per table, the owners of its rows: the entity, the scope's owner, or the rate's currency and valid_from
    private static final String OWNERS = """
            SELECT 'risk_request_log', entity_id::text FROM risk_request_log
            UNION SELECT 'risk_keyless_request_log', entity_id::text FROM risk_keyless_request_log
                  WHERE entity_id IS NOT NULL
            UNION SELECT 'risk_hourly_agg', entity_id::text FROM risk_hourly_chunk
            UNION SELECT 'risk_scope_hourly_agg', owner_id::text FROM risk_scope_hourly_chunk
            UNION SELECT 'risk_authorization_ledger', entity_id::text FROM risk_authorization_ledger
            UNION SELECT 'risk_fx_rate', currency || ' valid from ' || valid_from FROM risk_fx_rate
            """;

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(NoRowsLeftBehind.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        context.getStore(NAMESPACE).put(context.getRequiredTestClass(), owners());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        @SuppressWarnings("unchecked")
        Set<List<String>> before = context.getStore(NAMESPACE).get(context.getRequiredTestClass(), Set.class);
        Map<String, Set<String>> left = new TreeMap<>();
        for (List<String> owner : owners()) {
            if (!before.contains(owner)) {
                left.computeIfAbsent(owner.get(0), table -> new TreeSet<>()).add(owner.get(1));
            }
        }
        if (!left.isEmpty()) {
            List<String> tables = new ArrayList<>();
            left.forEach((table, owners) -> tables.add(
                    table.equals("risk_fx_rate") ? table + " " + owners : table + " of " + owners.size() + " owners"));
            throw new AssertionError(context.getRequiredTestClass().getSimpleName()
                    + " left rows of its own in the shared database: " + String.join(", ", tables));
        }
    }

    private static Set<List<String>> owners() {
        JdbcTemplate db = new JdbcTemplate(TestInfrastructure.get().dataSource());
        return new HashSet<>(db.query(OWNERS, (row, i) -> List.of(row.getString(1), row.getString(2))));
    }
}
