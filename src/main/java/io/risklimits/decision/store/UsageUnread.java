package io.risklimits.decision.store;

import io.risklimits.decision.ScopeKey;

/**
 * A batch would check an amount at a scope key whose usage it did not read ({@link UsageReading#unread}) and
 * cannot tell, from what it added there, that no window of the key stays below the end of the long range:
 * it reads the key's usage under the same locks and decides again, before writing anything.
 */
final class UsageUnread extends RuntimeException {

    private final transient ScopeKey key;

    UsageUnread(ScopeKey key) {
        super("the usage of " + key + " is needed: what the batch adds there nears the long range", null, false, false);
        this.key = key;
    }

    ScopeKey key() {
        return key;
    }
}
