package io.risklimits.decision.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Conversion;
import io.risklimits.decision.Decision;
import io.risklimits.decision.EventType;
import io.risklimits.decision.FxPolicy;
import io.risklimits.decision.FxRate;
import io.risklimits.decision.Limits;
import io.risklimits.decision.Tally;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.Verdict;
import io.risklimits.decision.hold.HoldTerms;
import io.risklimits.support.NoRowsLeftBehind;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A hold in another currency than the limit currency expires: what it still held is given back in the
 * limit currency, and its EXPIRED decision carries the hold's conversion, as stored.
 */
@ExtendWith(NoRowsLeftBehind.class)
class ForeignHoldExpiryIT {

    private static final Instant START =
            Instant.now().truncatedTo(ChronoUnit.HOURS).plus(Duration.ofMinutes(10));
    private static final Instant RATE_VALID_FROM = START.minus(Duration.ofHours(1));

    private final SetDatabaseClock clock = new SetDatabaseClock(START);
    private final BatchDecisionStore store = TestStores.batchDecisionStore(
            clock.dataSource(),
            clock.clock(),
            new FxPolicy(
                    "USD",
                    Duration.ofHours(48),
                    (currency, at) -> new FxRate(currency, new BigDecimal("1.13"), RATE_VALID_FROM)));

    @AfterEach
    void closeClock() {
        clock.close();
    }

    @Test
    void theExpiryOfAForeignHoldGivesBackWhatItCountedAndCarriesItsConversion() {
        BusinessKey key = clock.keys().newKey();
        Instant expiresAt = START.plus(Duration.ofHours(1));
        TransactionEvent hold = new TransactionEvent(
                UUID.randomUUID(), key, 999, "CHF", START, EventType.AUTHORIZATION, null, null, null, expiresAt, true);
        decide(hold);
        clock.set(expiresAt);

        decide(new TransactionEvent(UUID.randomUUID(), key, 10, "USD", expiresAt));

        Decision expiry = new FiledDecisions(JdbcClient.create(new JdbcTemplate(clock.dataSource())))
                .find(key, HoldTerms.expiryId(hold.dedupeId()))
                .orElseThrow();
        assertThat(expiry.verdict()).isEqualTo(Verdict.EXPIRED);
        // 9.99 francs at 1.13: 1,129 cents held, all given back
        assertThat(expiry.released()).isEqualTo(new Tally(1_129, 1));
        assertThat(expiry.fields().amount()).isEqualTo(999);
        assertThat(expiry.fields().currency()).isEqualTo("CHF");
        assertThat(expiry.conversion())
                .isEqualTo(new Conversion(1_129, "USD", new BigDecimal("1.13"), RATE_VALID_FROM));
    }

    private Decision decide(TransactionEvent event) {
        return store.decideAll(List.of(event), anyKey -> Limits.NONE).get(0);
    }
}
