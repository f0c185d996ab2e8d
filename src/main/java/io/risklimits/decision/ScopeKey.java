package io.risklimits.decision;

import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * What one scope adds up for one owner: the business key itself ({@link Scope#KEY}: the entity, its
 * channel and direction), an entity's or an account's usage over all channels (channel {@link #ALL_CHANNELS}),
 * or an account's usage on one channel. Usage is counted, limits are resolved and locks are taken per
 * scope key.
 *
 * @param owner the entity for {@link Scope#KEY} and {@link Scope#ENTITY}, else the account
 */
public record ScopeKey(Scope scope, UUID owner, String channel, Direction direction) {

    public static final String ALL_CHANNELS = "*";

    public ScopeKey {
        Objects.requireNonNull(scope);
        Objects.requireNonNull(owner);
        Objects.requireNonNull(direction);
        if (scope.spansChannels() != ALL_CHANNELS.equals(channel)) {
            throw new IllegalArgumentException("a " + scope.label() + " scope key has channel " + channel);
        }
    }

    public static ScopeKey of(BusinessKey key) {
        return new ScopeKey(Scope.KEY, key.entityId(), key.channel(), key.direction());
    }

    /**
     * Every scope key an event of the business key counts at, in the order the scopes are checked: the
     * key and its entity, and with an account the account's channel and the account.
     *
     * @param account null when the event names none
     */
    public static List<ScopeKey> countedAt(BusinessKey key, UUID account) {
        ScopeKey businessKey = of(key);
        ScopeKey entity = new ScopeKey(Scope.ENTITY, key.entityId(), ALL_CHANNELS, key.direction());
        if (account == null) {
            return List.of(businessKey, entity);
        }
        return List.of(
                businessKey,
                entity,
                new ScopeKey(Scope.ACCOUNT_CHANNEL, account, key.channel(), key.direction()),
                new ScopeKey(Scope.ACCOUNT, account, ALL_CHANNELS, key.direction()));
    }

    /** The business key of a {@link Scope#KEY} scope key. */
    public BusinessKey businessKey() {
        if (scope != Scope.KEY) {
            throw new IllegalStateException("a " + scope.label() + " scope key is not a business key");
        }
        return new BusinessKey(owner, channel, direction);
    }
}
