package io.risklimits.decider;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import io.risklimits.decision.store.BatchDecisionStore;
import io.risklimits.decision.store.ExpiryOutbox;
import io.risklimits.shared.ConditionalOnRole;
import io.risklimits.shared.Failpoints;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Every risk.holds.sweep-interval: expires the due holds of keys no batch has decided since they were
 * due, risk.holds.sweep-keys keys per transaction (under their locks, as a batch of theirs would: any
 * number of instances sweep at once and nothing is released twice), then sends every expiry filed and not
 * yet sent, and records it sent only once the broker confirmed it (an instance that dies in between
 * leaves it to the next sweep, which sends the same decision again).
 */
@Component
@ConditionalOnRole("decider")
class HoldSweep {

    private static final Logger log = LoggerFactory.getLogger(HoldSweep.class);

    // a sweep's rounds of each step, so that one sweep ends even when the holds come due faster than it
    // expires them; the next sweep goes on
    private static final int MAX_ROUNDS = 100;
    private static final int SEND_BATCH = 500;
    private static final long SEND_TIMEOUT_SECONDS = 60;

    private final BatchDecisionStore store;
    private final ExpiryOutbox outbox;
    private final DecisionPublisher publisher;
    private final DeciderMetrics metrics;
    private final Failpoints failpoints;
    private final int sweepKeys;

    HoldSweep(
            BatchDecisionStore store,
            ExpiryOutbox outbox,
            DecisionPublisher publisher,
            DeciderMetrics metrics,
            Failpoints failpoints,
            HoldProperties properties) {
        this.store = store;
        this.outbox = outbox;
        this.publisher = publisher;
        this.metrics = metrics;
        this.failpoints = failpoints;
        this.sweepKeys = properties.sweepKeys();
    }

    @Scheduled(
            fixedDelayString = "#{@'risk.holds-io.risklimits.decider.HoldProperties'.sweepInterval().toMillis()}",
            initialDelayString = "#{@'risk.holds-io.risklimits.decider.HoldProperties'.sweepInterval().toMillis()}")
    void sweep() {
        try {
            expireDueHolds();
            sendPendingExpiries();
            metrics.sweepSaw(outbox.sweepLagSeconds(), outbox.openHolds());
        } catch (RuntimeException e) {
            // the next sweep starts over: whatever this one filed is sent then
            log.warn("Hold sweep failed, the next one goes on: {}", e.toString());
        }
    }

    /** Expires the due holds, risk.holds.sweep-keys keys per transaction. Returns how many expired. */
    int expireDueHolds() {
        int expired = 0;
        for (int round = 0; round < MAX_ROUNDS; round++) {
            List<BusinessKey> keys = outbox.keysWithDueHolds(sweepKeys);
            if (keys.isEmpty()) {
                break;
            }
            expired += store.expireDueHolds(new LinkedHashSet<>(keys));
            if (keys.size() < sweepKeys) {
                break;
            }
        }
        metrics.holdsExpired(expired);
        if (expired > 0) {
            failpoints.reached(Failpoints.Point.AFTER_EXPIRY_COMMIT);
        }
        return expired;
    }

    /** Sends the expiries filed and not yet sent. Returns how many were sent. */
    int sendPendingExpiries() {
        int sent = 0;
        for (int round = 0; round < MAX_ROUNDS; round++) {
            List<Decision> pending = outbox.pending(SEND_BATCH);
            if (pending.isEmpty()) {
                break;
            }
            CompletableFuture<?>[] sends =
                    pending.stream().map(publisher::publishExpiry).toArray(CompletableFuture[]::new);
            try {
                CompletableFuture.allOf(sends).get(SEND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException("sending expiries failed; they stay pending", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while sending expiries; they stay pending", e);
            }
            failpoints.reached(Failpoints.Point.AFTER_EXPIRY_SENT);
            outbox.sent(pending);
            sent += pending.size();
            if (pending.size() < SEND_BATCH) {
                break;
            }
        }
        return sent;
    }
}
