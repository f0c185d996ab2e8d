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
 * <p>A value, as a record would be, but one that keeps its owner's bits and its hash code in itself: a
 * batch looks its scope keys up in hash maps several times an event (usage, counts, remembered window
 * starts), and a lookup then compares numbers in one object rather than following references to a UUID.
 */
public final class ScopeKey {

    public static final String ALL_CHANNELS = "*";

    private final Scope scope;
    private final long ownerHighBits;
    private final long ownerLowBits;
    private final String channel;
    private final Direction direction;
    private final int hash;

    /** @param owner the entity for {@link Scope#KEY} and {@link Scope#ENTITY}, else the account */
    public ScopeKey(Scope scope, UUID owner, String channel, Direction direction) {
        Objects.requireNonNull(scope);
        Objects.requireNonNull(owner);
        Objects.requireNonNull(direction);
        if (scope.spansChannels() != ALL_CHANNELS.equals(channel)) {
            throw new IllegalArgumentException("a " + scope.label() + " scope key has channel " + channel);
        }
        this.scope = scope;
        this.ownerHighBits = owner.getMostSignificantBits();
        this.ownerLowBits = owner.getLeastSignificantBits();
        this.channel = channel;
        this.direction = direction;
        this.hash =
                ((scope.ordinal() * 31 + owner.hashCode()) * 31 + Objects.hashCode(channel)) * 31 + direction.ordinal();
    }

    public Scope scope() {
        return scope;
    }

    /** The entity for {@link Scope#KEY} and {@link Scope#ENTITY}, else the account. */
    public UUID owner() {
        return new UUID(ownerHighBits, ownerLowBits);
    }

    public String channel() {
        return channel;
    }

    public Direction direction() {
        return direction;
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
        return new BusinessKey(owner(), channel, direction);
    }

    @Override
    public boolean equals(Object other) {
        return this == other
                || other instanceof ScopeKey key
                        && hash == key.hash
                        && ownerHighBits == key.ownerHighBits
                        && ownerLowBits == key.ownerLowBits
                        && scope == key.scope
                        && direction == key.direction
                        && Objects.equals(channel, key.channel);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return "ScopeKey[scope=" + scope + ", owner=" + owner() + ", channel=" + channel + ", direction=" + direction
                + "]";
    }
}
