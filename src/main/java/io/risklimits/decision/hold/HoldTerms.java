package io.risklimits.decision.hold;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

/**
 * Which approved authorizations are holds, and when a hold expires: one on a hold channel, or one that
 * names its own expiry, is a hold; it expires at the expiry it names, else the hold time after the
 * decision.
 *
 * @param channels the channels whose authorizations are holds (risk.holds.channels)
 * @param ttl how long a hold lasts when its authorization names no expiry (risk.holds.ttl); positive
 */
public record HoldTerms(Set<String> channels, Duration ttl) {

    /** risk.holds' defaults: authorizations on CARD are holds, for 7 days. */
    public static final HoldTerms DEFAULT = new HoldTerms(Set.of("CARD"), Duration.ofDays(7));

    // the namespace of the name-based UUIDs of expiries: an expiry's dedupe_id is the same wherever it is made
    private static final String EXPIRY_NAMESPACE = "risk-limits hold expiry:";

    public HoldTerms {
        channels = Set.copyOf(channels);
        Objects.requireNonNull(ttl, "ttl");
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("a hold lasts a positive time, not " + ttl);
        }
    }

    /**
     * When an approved authorization's hold expires; null when it is not a hold (a final spend).
     *
     * @param askedExpiry the authorization's hold_expires_at; null when it named none
     */
    public Instant expiryOf(String channel, Instant askedExpiry, Instant decidedAt) {
        if (askedExpiry != null) {
            return askedExpiry;
        }
        return channels.contains(channel) ? decidedAt.plus(ttl) : null;
    }

    /** The dedupe_id of an authorization's expiry: name-based, the same on every instance and every retry. */
    public static UUID expiryId(UUID authorizationId) {
        return UUID.nameUUIDFromBytes(
                (EXPIRY_NAMESPACE + authorizationId).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}
