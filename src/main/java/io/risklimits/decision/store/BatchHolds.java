package io.risklimits.decision.store;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.ConvertedDecisions;
import io.risklimits.decision.Decision;
import io.risklimits.decision.EventFields;
import io.risklimits.decision.EventType;
import io.risklimits.decision.ExpiryDecision;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Tally;
import io.risklimits.decision.hold.HoldLedger;
import io.risklimits.decision.hold.HoldOutcome;
import io.risklimits.decision.hold.HoldPolicy;
import io.risklimits.decision.hold.HoldTerms;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The authorizations a batch acts on, as its decisions leave them: the originals its follow-ups find (as
 * read under the locks, then as each decision of the batch changed them), the ledgers it writes, and the
 * expiries it files.
 */
final class BatchHolds {

    // the place in its batch of an expiry of a hold decided before it
    static final int BEFORE_EVERY_EVENT = -1;

    private final Instant bucket;
    private final Instant decidedAt;
    private final Map<RequestId, StoredOriginal> originals;
    private final Map<RequestId, HoldLedgers.Saved> ledgers = new LinkedHashMap<>();
    private final List<Decision> expiries = new ArrayList<>();
    // the expiries of holds approved in the batch already due, by their authorization's place
    private final Map<RequestId, Integer> expiryPlaces = new HashMap<>();

    BatchHolds(Instant bucket, Instant decidedAt, Map<RequestId, StoredOriginal> originals) {
        this.bucket = bucket;
        this.decidedAt = decidedAt;
        this.originals = new HashMap<>(originals);
    }

    /** Whether any follow-up's original was read: an event decided in the batch may be one too. */
    boolean anyOriginals() {
        return !originals.isEmpty();
    }

    /** The original as it stands now; null when none is known under the key. */
    StoredOriginal original(RequestId id) {
        return originals.get(id);
    }

    /** An event of the batch that a later follow-up of it may name: its ledger, or why it has none. */
    void decided(RequestId id, StoredOriginal original) {
        originals.put(id, original);
    }

    /**
     * An approved authorization that is a hold: its ledger is written with the batch. A hold due already
     * (its expiry not after the decision) expires at once, so no later decision, in this batch either,
     * counts it; its expiry takes the authorization's place in the batch.
     *
     * @param place the authorization's place in the batch (its event's index)
     */
    void held(RequestId id, StoredOriginal hold, BatchCounts counts, int place) {
        decided(id, hold);
        ledgers.put(id, new HoldLedgers.Saved(id, hold.accountId(), hold.ledger(), false, false));
        HoldPolicy.expire(hold.ledger(), decidedAt)
                .ifPresent(expiry -> expiryPlaces.put(RequestId.of(expire(id, hold, expiry, counts)), place));
    }

    /** A follow-up changed an original's ledger: written with the batch. */
    void changed(RequestId id, StoredOriginal before, HoldLedger after) {
        originals.put(id, before.with(after));
        ledgers.merge(
                id,
                new HoldLedgers.Saved(id, before.accountId(), after, false, before.ledgerStored()),
                (earlier, later) -> earlier.changed(after, earlier.expiredNow()));
    }

    /**
     * Takes out the holds due at the decision time, the earliest first: each whose scope keys are all
     * locked expires; the others are left out of the usage the batch decides with.
     *
     * @param due the open holds read as due at the batch's scope keys, by authorization
     * @param locked whether the batch holds a scope key's lock
     */
    void expireDue(Map<RequestId, StoredOriginal> due, Predicate<ScopeKey> locked, BatchCounts counts) {
        List<Map.Entry<RequestId, StoredOriginal>> byExpiry = new ArrayList<>(due.entrySet());
        byExpiry.sort(Comparator.comparing(entry -> entry.getValue().ledger().expiresAt()));
        for (Map.Entry<RequestId, StoredOriginal> entry : byExpiry) {
            RequestId id = entry.getKey();
            // a hold this batch reads as an original too is the same row, read under the same locks
            StoredOriginal hold = originals.getOrDefault(id, entry.getValue());
            Optional<HoldOutcome> expiry = HoldPolicy.expire(hold.original(), decidedAt);
            if (expiry.isEmpty()) {
                continue;
            }
            List<ScopeKey> countedAt = hold.countedAt(id.businessKey());
            if (countedAt.stream().allMatch(locked)) {
                expire(id, hold, expiry.get(), counts);
            } else {
                expiry.get().releases().forEach(release -> counts.leaveOut(release, countedAt));
            }
        }
    }

    /**
     * A hold expired in this batch: given back, its ledger closed, its EXPIRED decision filed (sent later)
     * and returned.
     */
    Decision expire(RequestId id, StoredOriginal hold, HoldOutcome expiry, BatchCounts counts) {
        counts.apply(expiry, hold.countedAt(id.businessKey()));
        HoldLedger after = (HoldLedger) expiry.after();
        originals.put(id, hold.with(after));
        ledgers.merge(
                id,
                new HoldLedgers.Saved(id, hold.accountId(), after, true, hold.ledgerStored()),
                (earlier, later) -> earlier.changed(after, true));
        Decision filed = expiryDecision(id, hold, after, expiry.released());
        expiries.add(filed);
        return filed;
    }

    private Decision expiryDecision(RequestId id, StoredOriginal hold, HoldLedger after, Tally released) {
        BusinessKey key = id.businessKey();
        EventFields authorization = new EventFields(
                key.entityId(),
                key.channel(),
                key.direction(),
                hold.amount(),
                hold.currency(),
                null,
                EventType.AUTHORIZATION,
                null,
                hold.accountId());
        Decision expiry = ExpiryDecision.of(
                HoldTerms.expiryId(id.dedupeId()),
                id.dedupeId(),
                authorization,
                after.expiresAt(),
                released,
                after.counted(),
                bucket,
                decidedAt);
        // a hold in another currency: what it gave back, at the rate it was counted at
        return ConvertedDecisions.followUp(
                expiry, hold.conversion() == null ? null : hold.conversion().counting(released.amount()));
    }

    /** The ledgers as the batch leaves them. */
    Collection<HoldLedgers.Saved> ledgers() {
        return ledgers.values();
    }

    /**
     * An expiry's place in the batch: its authorization's, for a hold the batch approved already due (the
     * readers of the audit log order such an expiry after the authorization that shares its place);
     * {@link #BEFORE_EVERY_EVENT} for any other.
     */
    int placeOf(Decision expiry) {
        return expiryPlaces.getOrDefault(RequestId.of(expiry), BEFORE_EVERY_EVENT);
    }

    /** The expiries filed in the batch, to be sent by the sweep. */
    List<Decision> expiries() {
        return expiries;
    }
}
