package io.risklimits.limits;

import io.risklimits.decision.Limit;
import io.risklimits.decision.Scope;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Window;
import java.util.UUID;

/**
 * One row of risk_limit: a limit of one scope. channel and direction may be "*" (at the entity and
 * account scopes the channel is always "*": they add up every channel); entityId (key and entity
 * scopes) or accountId (account scopes) null means any owner; shadow rows form the set evaluated
 * beside the enforced one, never enforced.
 */
public record LimitRow(
        String channel,
        String direction,
        UUID entityId,
        Window window,
        long maxAmount,
        long maxCount,
        Mode mode,
        Scope scope,
        UUID accountId) {

    public static final String ANY = "*";

    /** risk_limit.mode */
    public enum Mode {
        ENFORCE,
        SHADOW;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        public static Mode fromLabel(String label) {
            return valueOf(label.toUpperCase(java.util.Locale.ROOT));
        }
    }

    public LimitRow {
        if (scope.spansChannels() && !channel.equals(ANY)) {
            throw new IllegalArgumentException("a limit of the " + scope.label() + " scope has channel *");
        }
        if (entityId != null && scope.ownedByAccount()) {
            throw new IllegalArgumentException(
                    "a limit of the " + scope.label() + " scope names an account, not an entity");
        }
        if (accountId != null && !scope.ownedByAccount()) {
            throw new IllegalArgumentException(
                    "a limit of the " + scope.label() + " scope names an entity, not an account");
        }
    }

    /** A row of the business key's scope. */
    public LimitRow(
            String channel, String direction, UUID entityId, Window window, long maxAmount, long maxCount, Mode mode) {
        this(channel, direction, entityId, window, maxAmount, maxCount, mode, Scope.KEY, null);
    }

    /** An enforced row of the business key's scope. */
    public LimitRow(String channel, String direction, UUID entityId, Window window, long maxAmount, long maxCount) {
        this(channel, direction, entityId, window, maxAmount, maxCount, Mode.ENFORCE);
    }

    /** The entity or account this row overrides the limits of; null for a row of every owner. */
    public UUID ownerId() {
        return scope.ownedByAccount() ? accountId : entityId;
    }

    boolean matches(ScopeKey key) {
        UUID owner = ownerId();
        return scope == key.scope()
                && (owner == null || owner.equals(key.owner()))
                && (channel.equals(ANY) || channel.equals(key.channel()))
                && (direction.equals(ANY) || direction.equals(key.direction().name()));
    }

    /**
     * Higher is more specific. The owner (entity or account) weighs most, then the channel, then the
     * direction, so entity + channel + direction beats channel + direction, which beats the "*" rows.
     */
    int specificity() {
        return (ownerId() != null ? 4 : 0) + (channel.equals(ANY) ? 0 : 2) + (direction.equals(ANY) ? 0 : 1);
    }

    /** The limit this row sets; txn's maximum count is ignored, so it has none. */
    Limit limit() {
        return new Limit(maxAmount, window.countsUsage() ? maxCount : null);
    }
}
