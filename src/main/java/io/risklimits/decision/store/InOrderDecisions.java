package io.risklimits.decision.store;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.ConvertedDecisions;
import io.risklimits.decision.Decision;
import io.risklimits.decision.EventType;
import io.risklimits.decision.FxPolicy;
import io.risklimits.decision.LimitPolicy;
import io.risklimits.decision.Limits;
import io.risklimits.decision.Outcome;
import io.risklimits.decision.ReadResult;
import io.risklimits.decision.Reason;
import io.risklimits.decision.ScopeCheck;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.Usage;
import io.risklimits.decision.Verdict;
import io.risklimits.decision.WindowCalendar;
import io.risklimits.decision.hold.HoldLedger;
import io.risklimits.decision.hold.HoldOutcome;
import io.risklimits.decision.hold.HoldPolicy;
import io.risklimits.decision.hold.HoldReason.HoldRule;
import io.risklimits.decision.hold.HoldTerms;
import io.risklimits.decision.hold.HoldVerdict;
import io.risklimits.decision.hold.Original;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A batch's events decided in event order, in memory, from what the batch read under its keys' locks:
 * an event sees the effect of every event of its key before it in the batch (an approval counts, a
 * release frees limit, an authorization can be followed up later in the same batch, an INVALID event is
 * decided for its dedupe_id). Before the events, the holds due at the decision time that count at the
 * batch's scope keys are taken out: those of the batch's own keys expire (released, filed, their EXPIRED
 * decision to be sent), and those of other keys, whose locks the batch does not hold, are left out of the
 * usage it decides with, their own key's next batch or the sweep expiring them. Collects what the batch
 * then writes: the tallies counted per scope key, the releases, the ledgers, and the new decisions.
 */
final class InOrderDecisions {

    private final Instant bucket;
    private final Instant decidedAt;
    private final HoldTerms holdTerms;
    private final CountedAmounts amounts;
    private final Function<ScopeKey, Limits> limitsOf;
    private final Map<RequestId, Decision> known;
    private final BatchCounts counts;
    private final BatchHolds holds;
    private final Predicate<ScopeKey> locked;

    private final List<Decision> answers = new ArrayList<>();
    private final List<Decision> authorizations = new ArrayList<>();
    private final List<Decision> followUps = new ArrayList<>();
    private final List<Decision> invalid = new ArrayList<>();
    private int validEvents;
    private final Map<RequestId, Integer> decidedOrder = new HashMap<>();

    /**
     * @param originals the originals the batch's follow-ups name, as read under the locks
     * @param locked whether the batch holds a scope key's lock: a due hold is expired only when it holds
     *     the locks of every scope key the hold counts at
     */
    InOrderDecisions(
            Instant bucket,
            Instant decidedAt,
            WindowCalendar calendar,
            HoldTerms holdTerms,
            FxPolicy fx,
            Function<ScopeKey, Limits> limitsOf,
            Map<RequestId, Decision> stored,
            UsageReading reading,
            Map<RequestId, StoredOriginal> originals,
            Predicate<ScopeKey> locked) {
        this.bucket = bucket;
        this.decidedAt = decidedAt;
        this.holdTerms = holdTerms;
        this.amounts = new CountedAmounts(fx, decidedAt);
        this.limitsOf = limitsOf;
        this.known = new HashMap<>(stored);
        this.counts = new BatchCounts(bucket, calendar, reading.usage(), reading.unread());
        this.holds = new BatchHolds(bucket, decidedAt, originals);
        this.locked = locked;
    }

    /**
     * Takes out the holds due at the decision time that count at the batch's scope keys: the batch's own
     * keys' expire, the others are left out of its usage ({@link BatchHolds#expireDue}).
     */
    InOrderDecisions expire(Map<RequestId, StoredOriginal> due) {
        holds.expireDue(due, locked, counts);
        return this;
    }

    /**
     * Decides the events (each Valid, or Invalid with a readable business key) in order; one answer per
     * event. An INVALID event is answered with the decision already made for its dedupe_id as a plain
     * replay, and a valid one with other content as a dedupe conflict.
     */
    InOrderDecisions decide(List<ReadResult> events) {
        boolean followUpsInBatch = holds.anyOriginals()
                || events.stream()
                        .anyMatch(event -> event instanceof ReadResult.Valid valid
                                && valid.event().isFollowUp());
        for (int index = 0; index < events.size(); index++) {
            ReadResult read = events.get(index);
            RequestId id = RequestId.of(read);
            Decision earlier = known.get(id);
            Decision decision;
            if (read instanceof ReadResult.Valid valid) {
                validEvents++;
                TransactionEvent event = valid.event();
                if (earlier != null) {
                    List<String> differing = earlier.differingFields(event);
                    answers.add(differing.isEmpty() ? earlier.asReplay() : earlier.asConflictingReplay(differing));
                    continue;
                }
                if (event.isFollowUp()) {
                    decision = followUp(event);
                    if (followUpsInBatch) {
                        // a later follow-up in this batch may name it: it is not an approved authorization
                        holds.decided(id, StoredOriginal.NOT_APPROVED);
                    }
                } else {
                    decision = authorize(event, followUpsInBatch, index);
                }
            } else {
                if (earlier != null) {
                    answers.add(earlier.asReplay());
                    continue;
                }
                decision = fileInvalid((ReadResult.Invalid) read);
                if (followUpsInBatch) {
                    // a later follow-up in this batch may name it: it is not an approved authorization
                    holds.decided(id, StoredOriginal.NOT_APPROVED);
                }
            }
            known.put(id, decision);
            decidedOrder.put(id, index);
            answers.add(decision);
        }
        return this;
    }

    // checked at every scope key the event counts at, in scope order; approved, counted at each, and a hold
    // when it is one (HoldTerms); a hold already past its expiry expires at once, so that no later decision
    // counts it
    private Decision authorize(TransactionEvent event, boolean followUpsInBatch, int index) {
        List<ScopeKey> scopeKeys = event.scopeKeys();
        FxPolicy.Counted counted = amounts.ofAuthorization(event);
        long amount = counted.amount();
        List<ScopeCheck> checks = counts.checksAt(scopeKeys, limitsOf, amount);
        Outcome outcome =
                counted.isRefused() ? Outcome.rejectedFor(counted.refused()) : LimitPolicy.decide(amount, checks);
        Decision decision = ConvertedDecisions.limitChecked(event, counted, outcome, checks, bucket, decidedAt);
        RequestId id = RequestId.of(event);
        if (outcome.isApproved()) {
            for (int i = 0; i < scopeKeys.size(); i++) {
                counts.countAuthorization(scopeKeys.get(i), checks.get(i).usage(), amount);
            }
            Instant expiresAt = holdTerms.expiryOf(event.businessKey().channel(), event.holdExpiresAt(), decidedAt);
            HoldLedger ledger = expiresAt != null
                    ? HoldLedger.hold(amount, decidedAt, expiresAt)
                    : HoldLedger.finalSpend(amount, decidedAt);
            StoredOriginal stored = StoredOriginal.approved(ledger, event, counted.conversion());
            if (expiresAt != null) {
                decision = decision.asHoldUntil(expiresAt);
                holds.held(id, stored, counts, index);
            } else if (followUpsInBatch) {
                holds.decided(id, stored);
            }
        } else if (followUpsInBatch) {
            holds.decided(id, StoredOriginal.NOT_APPROVED);
        }
        authorizations.add(decision);
        return decision;
    }

    // by the hold policy, against the original as it stands (a due hold expired first); what it gives back
    // goes to the hours and scope keys the original was counted at, whatever account the follow-up names,
    // and the usage this batch holds of each (read for the batch's other events) moves with it
    private Decision followUp(TransactionEvent event) {
        BusinessKey key = event.businessKey();
        ScopeKey keyScope = ScopeKey.of(key);
        Usage before = counts.usageOf(keyScope);
        RequestId originalId = new RequestId(key, event.originalId());
        StoredOriginal stored = holds.original(originalId);
        Original original = stored == null ? Original.NoLedger.NOT_FOUND : stored.original();
        FxPolicy.Counted counted = amounts.ofFollowUp(event, stored);
        long amount = counted.amount();
        long own = event.amount(); // in its original's currency (else refused): the unit of its own figures
        // an increment is checked, and reports its headroom, where its hold counts (without one, where it would)
        boolean held = stored != null && stored.ledger() != null;
        List<ScopeCheck> checks = event.type() != EventType.INCREMENT
                ? List.of()
                : counts.checksAt(held ? stored.countedAt(key) : event.scopeKeys(), limitsOf, amount);
        Reason exceeded = event.type() == EventType.INCREMENT ? limitOf(amount, stored, checks) : null;
        HoldOutcome outcome = counted.isRefused()
                ? HoldPolicy.refused(
                        original, HoldRule.valueOf(counted.refused().name()))
                : switch (event.type()) {
                    case REVERSAL -> HoldPolicy.reverse(original, amount, own, decidedAt);
                    case CAPTURE -> HoldPolicy.capture(original, amount, own, event.isFinal(), decidedAt);
                    case INCREMENT ->
                        HoldPolicy.increment(original, amount, own, decidedAt, event.holdExpiresAt(), exceeded);
                    default -> throw new IllegalArgumentException("not a follow-up: " + event.type());
                };
        if (outcome.expiredFirst() != null) {
            holds.expire(originalId, stored, outcome.expiredFirst(), counts);
        }
        // a capture without an approved authorization counts where the capture itself does
        List<ScopeKey> countedAt = outcome.after() instanceof HoldLedger ? stored.countedAt(key) : event.scopeKeys();
        counts.apply(outcome, countedAt);
        if (outcome.verdict() != HoldVerdict.REJECTED && outcome.after() instanceof HoldLedger after) {
            holds.changed(originalId, stored, after);
        }
        Decision decision = ConvertedDecisions.followUp(
                Decision.followUp(
                        event,
                        outcome.publishedVerdict(),
                        outcome.reason() == null
                                ? null
                                : Reason.valueOf(outcome.reason().code()),
                        before,
                        limitsOf.apply(keyScope),
                        bucket,
                        decidedAt,
                        outcome.reportedReleased(),
                        event.type() == EventType.INCREMENT ? null : outcome.remaining(),
                        outcome.verdict() == HoldVerdict.APPROVED ? ((HoldLedger) outcome.after()).expiresAt() : null,
                        outcome.verdict() == HoldVerdict.CAPTURED ? outcome.captured() : null,
                        outcome.verdict() == HoldVerdict.CAPTURED ? outcome.overCaptured() : null,
                        checks),
                counted.conversion());
        followUps.add(decision);
        return decision;
    }

    // the first limit an increment of an open hold would exceed, at every scope the hold counts at; null when
    // the limits admit it, or when the hold admits no increment (the policy's answer then)
    private static Reason limitOf(long amount, StoredOriginal stored, List<ScopeCheck> checks) {
        if (stored == null || stored.ledger() == null) {
            return null;
        }
        long holdTotal = Math.addExact(stored.ledger().authorized(), amount);
        return LimitPolicy.decideIncrement(amount, holdTotal, checks).reason();
    }

    private Decision fileInvalid(ReadResult.Invalid read) {
        Decision decision = Decision.invalid(read.dedupeId(), read.fields(), read.errors(), decidedAt);
        invalid.add(decision);
        return decision;
    }

    List<Decision> answers() {
        return answers;
    }

    /** The authorizations decided here (not the replays): APPROVED or REJECTED. */
    List<Decision> authorizations() {
        return authorizations;
    }

    /** The follow-ups decided here (not the replays): reversals, captures and increments. */
    List<Decision> followUps() {
        return followUps;
    }

    /** The INVALID events filed here (not the replays). */
    List<Decision> invalid() {
        return invalid;
    }

    /** How many of the events were valid, replays included. */
    int validEvents() {
        return validEvents;
    }

    /** A decision's place in the batch: the index of its event; an expiry's, {@link BatchHolds#placeOf}. */
    int decidedOrder(Decision decision) {
        return decision.verdict() == Verdict.EXPIRED
                ? holds.placeOf(decision)
                : decidedOrder.get(RequestId.of(decision));
    }

    /** What the batch counts and gives back. */
    BatchCounts counts() {
        return counts;
    }

    /** The ledgers it writes and the expiries it files. */
    BatchHolds holds() {
        return holds;
    }
}
