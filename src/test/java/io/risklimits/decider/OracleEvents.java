package io.risklimits.decider;

import io.risklimits.support.Events;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.function.Function;

/**
 * The random events of the decider's oracle test, each built from what was sent before it: authorizations
 * (some INVALID, some holds that expire within seconds, a few due already when decided, about 30 % in
 * currencies other than the limit currency), a dedupe_id sent again now and then, and follow-ups of
 * earlier events whatever became of them: reversals, captures (for what was held, less, more, split into a
 * non-final and a final one, of unknown originals) and increments (some moving the expiry, some beyond a
 * limit), in their original's currency, now and then in another.
 */
final class OracleEvents {

    /** The longest a short hold lasts after it is sent. */
    static final Duration SHORT_HOLD_AT_MOST = Duration.ofMillis(3_500);

    /** The limit currency: most events' currency. */
    static final String LIMIT_CURRENCY = "USD";

    private static final int FOREIGN_PERCENT = 30;
    private static final int WRONG_CURRENCY_PERCENT = 8;

    /**
     * A currency other than the limit currency an authorization may be in: how often, relative to the
     * others, and about how many of its minor units are worth a cent, so that its amounts meet the limits
     * as often as the limit currency's.
     */
    record Foreign(String code, int weight, double minorUnitsPerCent) {}

    private final Random random;
    private final List<UUID> entities;
    private final List<UUID> accounts;
    private final List<String> channels;
    private final String holdChannel;
    private final Function<UUID, UUID> accountOf;
    private final List<Foreign> foreign;
    private final int foreignWeights;
    private final List<Sent> sent = new ArrayList<>();
    private final List<Sent> authorizations = new ArrayList<>();
    private final List<Sent> holds = new ArrayList<>();
    private final List<Sent> heldBefore = new ArrayList<>();
    private final List<Sent> finalCapturesToCome = new ArrayList<>();
    private Instant latestShortExpiry = Instant.EPOCH;

    /**
     * @param type AUTHORIZATION, REVERSAL, CAPTURE or INCREMENT
     * @param account the account the event names; null when it names none
     * @param original the original a follow-up names; null for an authorization
     * @param isFinal whether a capture is final
     * @param holdExpiresAt the hold_expires_at an authorization or an increment names; null when none
     */
    record Sent(
            String key,
            String dedupeId,
            byte[] payload,
            long amount,
            String currency,
            boolean invalid,
            String account,
            String type,
            String original,
            boolean isFinal,
            Instant holdExpiresAt) {

        boolean authorization() {
            return type.equals("AUTHORIZATION");
        }
    }

    OracleEvents(
            long seed,
            List<UUID> entities,
            List<UUID> accounts,
            List<String> channels,
            String holdChannel,
            Function<UUID, UUID> accountOf,
            List<Foreign> foreign) {
        this.random = new Random(seed);
        this.entities = entities;
        this.accounts = accounts;
        this.channels = channels;
        this.holdChannel = holdChannel;
        this.accountOf = accountOf;
        this.foreign = List.copyOf(foreign);
        this.foreignWeights = foreign.stream().mapToInt(Foreign::weight).sum();
    }

    /** Every event made so far, a dedupe_id sent again as often as it was. */
    List<Sent> sent() {
        return sent;
    }

    /** The latest hold_expires_at of the short holds made so far. */
    Instant latestShortExpiry() {
        return latestShortExpiry;
    }

    /**
     * A hold decided before the test, counted in earlier hours, never sent: follow-ups name it as often
     * as they name a fifth of the rest, so that their releases (and its expiry) take from parts counted in
     * several hours.
     */
    void heldBefore(Sent hold) {
        heldBefore.add(hold);
        authorizations.add(hold);
        holds.add(hold);
    }

    Sent next() {
        Sent event = make();
        sent.add(event);
        if (event.authorization() && !event.invalid()) {
            authorizations.add(event);
            if (event.holdExpiresAt() != null || event.key().split(":")[1].equals(holdChannel)) {
                holds.add(event);
            }
        }
        return event;
    }

    private Sent make() {
        int dice = random.nextInt(100);
        if (sent.isEmpty()) {
            return authorization();
        }
        if (dice < 5) {
            return sent.get(random.nextInt(sent.size()));
        }
        if (dice < 9 && !finalCapturesToCome.isEmpty()) {
            return finalCapturesToCome.remove(0);
        }
        if (dice < 19) {
            return reversal(
                    !heldBefore.isEmpty() && random.nextInt(5) == 0
                            ? heldBefore.get(random.nextInt(heldBefore.size()))
                            : sent.get(random.nextInt(sent.size())));
        }
        if (dice < 27 && !authorizations.isEmpty()) {
            return capture(original());
        }
        if (dice < 33 && !authorizations.isEmpty()) {
            return increment(original());
        }
        return authorization();
    }

    /**
     * An earlier authorization: one decided before the test one time in five, else a hold three times in
     * four, a recent one more often.
     */
    private Sent original() {
        if (!heldBefore.isEmpty() && random.nextInt(5) == 0) {
            return heldBefore.get(random.nextInt(heldBefore.size()));
        }
        List<Sent> from = !holds.isEmpty() && random.nextInt(4) > 0 ? holds : authorizations;
        int recent = Math.min(from.size(), 200);
        return random.nextBoolean()
                ? from.get(from.size() - 1 - random.nextInt(recent))
                : from.get(random.nextInt(from.size()));
    }

    private Sent authorization() {
        UUID entity = entities.get(random.nextInt(entities.size()));
        String channel = channels.get(random.nextInt(channels.size()));
        String direction = random.nextBoolean() ? "IN" : "OUT";
        // an entity's events name its account, now and then none
        UUID account = random.nextInt(100) < 85 ? accountOf.apply(entity) : null;
        boolean invalid = random.nextInt(100) < 3;
        String currency = invalid || random.nextInt(100) >= FOREIGN_PERCENT ? LIMIT_CURRENCY : foreignCurrency();
        long amount = invalid ? 0 : inCurrency(1 + random.nextInt(3000), currency);
        UUID dedupeId = UUID.randomUUID();
        Map<String, Object> event =
                Events.withAccount(Events.event(dedupeId, entity, channel, direction, amount), account);
        event.put("currency", currency);
        // on the hold channel a hold lasts the hold time unless it names a short one; elsewhere it is a
        // final spend unless it names one; now and then one that occurred minutes ago names an expiry
        // before it is sent: a hold due when it is decided
        int holdKind = invalid ? 100 : random.nextInt(100);
        Instant holdExpiresAt = null;
        if (holdKind < 3) {
            Instant sentAt = Instant.parse((String) event.get("occurred_at"));
            event.put("occurred_at", sentAt.minus(Duration.ofMinutes(10)).toString());
            holdExpiresAt = sentAt.minus(Duration.ofMinutes(5)).truncatedTo(ChronoUnit.MILLIS);
            event.put("hold_expires_at", holdExpiresAt.toString());
        } else if (holdKind < (channel.equals(holdChannel) ? 45 : 12)) {
            holdExpiresAt = shortExpiry(event);
        }
        return new Sent(
                Events.businessKey(entity, channel, direction),
                dedupeId.toString(),
                Events.json(event),
                amount,
                currency,
                invalid,
                account == null ? null : account.toString(),
                "AUTHORIZATION",
                null,
                true,
                holdExpiresAt);
    }

    /**
     * A reversal naming an event sent before (whatever became of it: approved, rejected, invalid, a hold,
     * or a follow-up itself), mostly under its own key: in full, in part, or for more than it was; now and
     * then under another key, or naming an event that never was. It names its original's account, no
     * account, or another one: where it releases must not depend on it.
     */
    private Sent reversal(Sent earlier) {
        FollowUp followUp = followUpOf(earlier, 5, 10);
        long original = Math.max(1, earlier.amount());
        int kind = random.nextInt(100);
        long amount =
                kind < 40 ? original : kind < 85 ? 1 + random.nextInt((int) Math.min(original, 3000)) : original + 1;
        Map<String, Object> event = followUp.event(amount);
        event.put("type", "REVERSAL");
        event.put("reverses", followUp.original().toString());
        return followUp.sent(event, amount, "REVERSAL", true, null);
    }

    /**
     * A capture of an earlier authorization: for what it holds, less, or more (a tip), or split into a
     * non-final part now and a final one later (for the rest, less or more); now and then of an original
     * that never was, or under another key: a capture without an authorization.
     */
    private Sent capture(Sent earlier) {
        FollowUp followUp = followUpOf(earlier, 4, 7);
        long original = Math.max(1, earlier.amount());
        int kind = random.nextInt(100);
        if (kind < 25) {
            long part = 1 + random.nextInt((int) original);
            long lessOrMore =
                    inCurrency(1 + random.nextInt(200), followUp.currency()) * (random.nextBoolean() ? 1 : -1);
            finalCapturesToCome.add(captureOf(followUp, Math.max(1, original - part + lessOrMore), true));
            return captureOf(followUp, part, false);
        }
        long amount = kind < 50
                ? original
                : kind < 75
                        ? 1 + random.nextInt((int) original)
                        : original + inCurrency(1 + random.nextInt(800), followUp.currency());
        return captureOf(followUp, amount, true);
    }

    private Sent captureOf(FollowUp followUp, long amount, boolean isFinal) {
        Map<String, Object> event = followUp.event(amount);
        event.put("type", "CAPTURE");
        event.put("original", followUp.original().toString());
        // final is true when absent
        if (!isFinal || random.nextBoolean()) {
            event.put("final", isFinal);
        }
        return followUp.sent(event, amount, "CAPTURE", isFinal, null);
    }

    /**
     * An increment of an earlier authorization, now and then beyond the txn cap with it or a window's
     * amount, moving the expiry to within seconds or a day on, or of an original that never was.
     */
    private Sent increment(Sent earlier) {
        FollowUp followUp = followUpOf(earlier, 4, 6);
        long amount = inCurrency(1 + random.nextInt(random.nextInt(100) < 20 ? 3_000 : 800), followUp.currency());
        Map<String, Object> event = followUp.event(amount);
        event.put("type", "INCREMENT");
        event.put("original", followUp.original().toString());
        int moves = random.nextInt(100);
        Instant holdExpiresAt = null;
        if (moves < 35) {
            holdExpiresAt = shortExpiry(event);
        } else if (moves < 45) {
            holdExpiresAt = Instant.now().plus(Duration.ofDays(1)).truncatedTo(ChronoUnit.MILLIS);
            event.put("hold_expires_at", holdExpiresAt.toString());
        }
        return followUp.sent(event, amount, "INCREMENT", true, holdExpiresAt);
    }

    /** A hold_expires_at within seconds of the event's occurred_at, set on it. */
    private Instant shortExpiry(Map<String, Object> event) {
        Instant occurredAt = Instant.parse((String) event.get("occurred_at"));
        long millis = 1_000 + random.nextInt((int) SHORT_HOLD_AT_MOST.toMillis() - 1_000);
        Instant expiresAt = occurredAt.plusMillis(millis).truncatedTo(ChronoUnit.MILLIS);
        event.put("hold_expires_at", expiresAt.toString());
        if (expiresAt.isAfter(latestShortExpiry)) {
            latestShortExpiry = expiresAt;
        }
        return expiresAt;
    }

    /**
     * Where a follow-up of the earlier event goes: its key and original, now and then (below the given
     * percentages) an original that never was, or another entity and direction; and the account it names:
     * its original's, none, or another.
     */
    private FollowUp followUpOf(Sent earlier, int unknownBelow, int otherKeyBelow) {
        String[] key = earlier.key().split(":");
        UUID entity = UUID.fromString(key[0]);
        String direction = key[2];
        UUID original = UUID.fromString(earlier.dedupeId());
        int kind = random.nextInt(100);
        if (kind < unknownBelow) {
            original = UUID.randomUUID();
        } else if (kind < otherKeyBelow) {
            entity = entities.get(random.nextInt(entities.size()));
            direction = direction.equals("IN") ? "OUT" : "IN";
        }
        int accountKind = random.nextInt(100);
        UUID account = accountKind < 40
                ? (earlier.account() == null ? null : UUID.fromString(earlier.account()))
                : accountKind < 70 ? null : accounts.get(random.nextInt(accounts.size()));
        return new FollowUp(entity, key[1], direction, original, account, currencyAfter(earlier));
    }

    /** A follow-up's currency: its original's, now and then another (the limit currency or a foreign one). */
    private String currencyAfter(Sent earlier) {
        if (random.nextInt(100) >= WRONG_CURRENCY_PERCENT) {
            return earlier.currency();
        }
        String other = earlier.currency().equals(LIMIT_CURRENCY) ? foreignCurrency() : LIMIT_CURRENCY;
        return other.equals(earlier.currency()) ? LIMIT_CURRENCY : other;
    }

    private String foreignCurrency() {
        int dice = random.nextInt(foreignWeights);
        for (Foreign currency : foreign) {
            dice -= currency.weight();
            if (dice < 0) {
                return currency.code();
            }
        }
        throw new IllegalStateException("weights sum to " + foreignWeights);
    }

    /** About as much in the currency's minor units as the cents. */
    private long inCurrency(long cents, String currency) {
        double perCent = foreign.stream()
                .filter(each -> each.code().equals(currency))
                .mapToDouble(Foreign::minorUnitsPerCent)
                .findFirst()
                .orElse(1);
        return Math.max(1, Math.round(cents * perCent));
    }

    private record FollowUp(
            UUID entity, String channel, String direction, UUID original, UUID account, String currency) {

        Map<String, Object> event(long amount) {
            Map<String, Object> event =
                    Events.withAccount(Events.event(UUID.randomUUID(), entity, channel, direction, amount), account);
            event.put("currency", currency);
            return event;
        }

        Sent sent(Map<String, Object> event, long amount, String type, boolean isFinal, Instant holdExpiresAt) {
            return new Sent(
                    Events.businessKey(entity, channel, direction),
                    (String) event.get("dedupe_id"),
                    Events.json(event),
                    amount,
                    currency,
                    false,
                    account == null ? null : account.toString(),
                    type,
                    original.toString(),
                    isFinal,
                    holdExpiresAt);
        }
    }
}
