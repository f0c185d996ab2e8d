package io.risklimits.decision;

import java.util.Locale;

/**
 * What a limit adds up, in the order the scopes are checked: the business key, the entity over all its
 * channels, the account over all its entities on one channel, the account over everything. Every
 * approved authorization is counted at each scope it belongs to; the account scopes only when the
 * event names an account.
 */
public enum Scope {
    KEY,
    ENTITY,
    ACCOUNT_CHANNEL,
    ACCOUNT;

    /** The name in risk_limit.scope, in the decision's "scopes" and in the CLI. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Scope fromLabel(String label) {
        for (Scope scope : values()) {
            if (scope.label().equals(label)) {
                return scope;
            }
        }
        throw new IllegalArgumentException("no scope " + label + ": key, entity, account_channel or account");
    }

    /** Whether a scope key of this scope adds up every channel (its channel is "*"). */
    public boolean spansChannels() {
        return this == ENTITY || this == ACCOUNT;
    }

    /** Whether this scope's owner is an account (else an entity). */
    public boolean ownedByAccount() {
        return this == ACCOUNT_CHANNEL || this == ACCOUNT;
    }

    /** The reason a window of this scope rejects for: the key's reason, prefixed for the other scopes. */
    Reason reasonFor(Reason keyReason) {
        return this == KEY ? keyReason : Reason.valueOf(name() + "_" + keyReason.name());
    }
}
