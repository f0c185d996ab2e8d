package io.risklimits.decision;

/**
 * One scope of an authorization as it was checked: the usage of the event's scope key at that scope
 * before the event, and the limits in force there.
 */
public record ScopeCheck(Scope scope, Usage usage, Limits limits) {

    /** Whether any window of this scope has a limit in force: only those scopes are reported. */
    public boolean limited() {
        return !limits.byWindow().isEmpty();
    }

    /** The same check against the shadow set, or the enforced limits where no shadow row matches. */
    ScopeCheck asShadow() {
        return limits.shadow() == null
                ? new ScopeCheck(scope, usage, limits.enforcedOnly())
                : new ScopeCheck(scope, usage, limits.shadow());
    }
}
