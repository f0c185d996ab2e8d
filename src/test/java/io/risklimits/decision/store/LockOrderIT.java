package io.risklimits.decision.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import io.risklimits.decision.EventType;
import io.risklimits.decision.Limits;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.Verdict;
import io.risklimits.support.NoRowsLeftBehind;
import io.risklimits.support.TestInfrastructure;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Two workers' batches that share business keys, entities and accounts, their events in opposite orders:
 * each batch takes its locks in one order (business keys and entities by hash, then accounts by hash),
 * whatever the order of its events, so neither ever holds a lock the other holds while it waits for one
 * the other holds: no deadlock, and every event decided.
 */
@ExtendWith(NoRowsLeftBehind.class)
class LockOrderIT {

    private static final int KEYS = 40;
    private static final int ROUNDS = 15;

    private final DataSource dataSource = TestInfrastructure.get().dataSource();
    private final BatchDecisionStore oneWorker = TestStores.batchDecisionStore(dataSource);
    private final BatchDecisionStore otherWorker = TestStores.batchDecisionStore(dataSource);
    private final TestKeys ownKeys = new TestKeys();

    @AfterEach
    void deleteTheRowsOfTheTestsKeys() {
        ownKeys.deleteTheirRows(new JdbcTemplate(dataSource));
    }

    @Test
    void batchesSharingKeysAndAccountsInOppositeOrdersAreAllDecided() throws Exception {
        List<BusinessKey> keys = new ArrayList<>();
        List<UUID> accounts = new ArrayList<>();
        for (int i = 0; i < KEYS; i++) {
            keys.add(ownKeys.newKey());
            accounts.add(ownKeys.newAccount());
        }
        for (int round = 0; round < ROUNDS; round++) {
            List<TransactionEvent> forward = new ArrayList<>();
            List<TransactionEvent> backward = new ArrayList<>();
            for (int i = 0; i < KEYS; i++) {
                // the account of key i is also the account of key KEYS - 1 - i in the other batch
                forward.add(authorization(keys.get(i), accounts.get(i)));
                backward.add(authorization(keys.get(KEYS - 1 - i), accounts.get(i)));
            }
            CyclicBarrier start = new CyclicBarrier(2);
            CompletableFuture<List<Decision>> one =
                    CompletableFuture.supplyAsync(() -> decide(oneWorker, forward, start));
            CompletableFuture<List<Decision>> other =
                    CompletableFuture.supplyAsync(() -> decide(otherWorker, backward, start));

            assertThat(one.get(60, TimeUnit.SECONDS))
                    .extracting(Decision::verdict)
                    .containsOnly(Verdict.APPROVED);
            assertThat(other.get(60, TimeUnit.SECONDS))
                    .extracting(Decision::verdict)
                    .containsOnly(Verdict.APPROVED);
        }
    }

    private static List<Decision> decide(BatchDecisionStore store, List<TransactionEvent> events, CyclicBarrier start) {
        try {
            start.await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the other worker did not start", e);
        }
        return store.decideAll(events, anyKey -> Limits.NONE);
    }

    private static TransactionEvent authorization(BusinessKey key, UUID account) {
        return new TransactionEvent(
                UUID.randomUUID(),
                key,
                100,
                "USD",
                Instant.now().truncatedTo(ChronoUnit.MICROS),
                EventType.AUTHORIZATION,
                null,
                account);
    }
}
