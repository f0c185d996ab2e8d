package io.risklimits.decision.store;

import io.risklimits.decision.BusinessKey;
import io.risklimits.decision.Decision;
import io.risklimits.decision.LimitPolicy;
import io.risklimits.decision.Limits;
import io.risklimits.decision.Outcome;
import io.risklimits.decision.ReadResult;
import io.risklimits.decision.ReversalPolicy;
import io.risklimits.decision.ScopeCheck;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Tally;
import io.risklimits.decision.TransactionEvent;
import io.risklimits.decision.Usage;
import io.risklimits.decision.WindowCalendar;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A batch's events decided in event order, in memory, from what the batch read under its keys' locks:
 * an event sees the effect of every event of its key before it in the batch (an approval counts, a
 * release frees limit, an authorization can be reversed later in the same batch, an INVALID event is
 * decided for its dedupe_id). Collects what the batch then writes: the approved tallies per key, the
 * releases, and the new decisions.
 */
final class InOrderDecisions {

    private final Instant bucket;
    private final Instant decidedAt;
    private final WindowCalendar calendar;
    private final Function<ScopeKey, Limits> limitsOf;
    private final Map<RequestId, Decision> known;
    private final Map<ScopeKey, Usage> usage;
    private final Map<RequestId, StoredOriginal> originals;

    private final List<Decision> answers = new ArrayList<>();
    private final List<Decision> authorizations = new ArrayList<>();
    private final List<Decision> reversals = new ArrayList<>();
    private final List<Decision> invalid = new ArrayList<>();
    private int validEvents;
    private final Map<ScopeKey, Tally> approved = new LinkedHashMap<>();
    private final List<HourlyUsageRepository.Release> releases = new ArrayList<>();
    private final Map<RequestId, Integer> decidedOrder = new HashMap<>();

    InOrderDecisions(
            Instant bucket,
            Instant decidedAt,
            WindowCalendar calendar,
            Function<ScopeKey, Limits> limitsOf,
            Map<RequestId, Decision> stored,
            Map<ScopeKey, Usage> usage,
            Map<RequestId, StoredOriginal> originals) {
        this.bucket = bucket;
        this.decidedAt = decidedAt;
        this.calendar = calendar;
        this.limitsOf = limitsOf;
        this.known = new HashMap<>(stored);
        this.usage = new HashMap<>(usage);
        this.originals = new HashMap<>(originals);
    }

    /**
     * Decides the events (each Valid, or Invalid with a readable business key) in order; one answer per
     * event. An INVALID event is answered with the decision already made for its dedupe_id as a plain
     * replay, and a valid one with other content as a dedupe conflict.
     */
    InOrderDecisions decide(List<ReadResult> events) {
        boolean reversalsInBatch = !originals.isEmpty()
                || events.stream()
                        .anyMatch(event -> event instanceof ReadResult.Valid valid
                                && valid.event().isReversal());
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
                decision = event.isReversal() ? reverse(event) : authorize(event);
            } else {
                if (earlier != null) {
                    answers.add(earlier.asReplay());
                    continue;
                }
                decision = fileInvalid((ReadResult.Invalid) read);
            }
            if (reversalsInBatch) {
                // a later reversal in this batch may name this event as its original
                originals.put(id, asOriginal(decision));
            }
            known.put(id, decision);
            decidedOrder.put(id, index);
            answers.add(decision);
        }
        return this;
    }

    // checked at every scope key the event counts at, in scope order; approved, counted at each
    private Decision authorize(TransactionEvent event) {
        List<ScopeKey> scopeKeys = event.scopeKeys();
        List<ScopeCheck> checks = new ArrayList<>(scopeKeys.size());
        for (ScopeKey key : scopeKeys) {
            checks.add(new ScopeCheck(key.scope(), usage.getOrDefault(key, Usage.NONE), limitsOf.apply(key)));
        }
        Outcome outcome = LimitPolicy.decide(event.amount(), checks);
        if (outcome.isApproved()) {
            for (int i = 0; i < scopeKeys.size(); i++) {
                ScopeKey key = scopeKeys.get(i);
                usage.put(key, checks.get(i).usage().plus(event.amount()));
                approved.merge(key, Tally.ZERO.plus(event.amount()), Tally::plus);
            }
        }
        Decision decision = Decision.limitChecked(event, outcome, checks, bucket, decidedAt);
        authorizations.add(decision);
        return decision;
    }

    // released at every scope key the original was counted at, whatever account the reversal names; the
    // usage this batch holds of each (read for the batch's other events) shrinks with it
    private Decision reverse(TransactionEvent event) {
        BusinessKey key = event.businessKey();
        Usage before = usage.getOrDefault(ScopeKey.of(key), Usage.NONE);
        RequestId originalId = new RequestId(key, event.reverses());
        StoredOriginal original = originals.get(originalId);
        ReversalPolicy.Outcome outcome =
                ReversalPolicy.decide(event.amount(), original == null ? null : original.original());
        if (outcome.isReleased()) {
            for (ScopeKey countedAt : original.countedAt(key)) {
                usage.computeIfPresent(
                        countedAt,
                        (scopeKey, held) -> held.minus(outcome.released(), original.bucketTs(), bucket, calendar));
                releases.add(new HourlyUsageRepository.Release(countedAt, original.bucketTs(), outcome.released()));
            }
            originals.put(originalId, original.afterRelease(event.amount()));
        }
        Decision decision =
                Decision.reversal(event, outcome, before, limitsOf.apply(ScopeKey.of(key)), bucket, decidedAt);
        reversals.add(decision);
        return decision;
    }

    private Decision fileInvalid(ReadResult.Invalid read) {
        Decision decision = Decision.invalid(read.dedupeId(), read.fields(), read.errors(), decidedAt);
        invalid.add(decision);
        return decision;
    }

    // as a reversal later in the batch finds it: type, decision and amount (null and 0 where INVALID
    // left them unread), nothing released yet
    private StoredOriginal asOriginal(Decision decision) {
        Long amount = decision.fields().amount();
        return new StoredOriginal(
                new ReversalPolicy.Original(
                        decision.fields().type(), decision.verdict(), amount == null ? 0 : amount, 0),
                bucket,
                decision.fields().accountId());
    }

    List<Decision> answers() {
        return answers;
    }

    /** The authorizations decided here (not the replays): APPROVED or REJECTED. */
    List<Decision> authorizations() {
        return authorizations;
    }

    /** The reversals decided here (not the replays): RELEASED or REJECTED. */
    List<Decision> reversals() {
        return reversals;
    }

    /** The INVALID events filed here (not the replays). */
    List<Decision> invalid() {
        return invalid;
    }

    /** How many of the events were valid, replays included. */
    int validEvents() {
        return validEvents;
    }

    /** A decision's place in the batch: the index of its event. */
    int decidedOrder(Decision decision) {
        return decidedOrder.get(RequestId.of(decision));
    }

    Map<ScopeKey, Tally> approved() {
        return approved;
    }

    List<HourlyUsageRepository.Release> releases() {
        return releases;
    }
}
