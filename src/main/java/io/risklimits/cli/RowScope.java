package io.risklimits.cli;

import io.risklimits.decision.Scope;
import io.risklimits.limits.LimitRow;
import java.util.UUID;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * The row scope of risk_limit rows as the CLI names it: the scope, channel and direction (each maybe
 * "*") and the owner, an entity (key and entity scopes) or an account (account_channel and account
 * scopes), or none.
 */
record RowScope(Scope scope, String channel, String direction, UUID entityId, UUID accountId) {

    static final String ADD_UP_EVERY_CHANNEL = "the entity and account scopes add up every channel";

    static RowScope of(LimitRow row) {
        return new RowScope(row.scope(), row.channel(), row.direction(), row.entityId(), row.accountId());
    }

    /**
     * "channel CARD direction OUT entity *" at the key scope, "scope account channel * direction OUT
     * account 0b3e..." at the others: the row scope as operators read it.
     */
    String describe() {
        String where = "channel " + channel + " direction " + direction;
        if (scope == Scope.KEY) {
            return where + " entity " + owner(entityId);
        }
        return "scope " + scope.label() + " " + where
                + (scope.ownedByAccount() ? " account " + owner(accountId) : " entity " + owner(entityId));
    }

    private static String owner(UUID id) {
        return id == null ? "*" : id.toString();
    }

    /** A usage error for an entity named at an account scope or an account at an entity's. */
    static void refuseOwnersOfAnotherScope(CommandLine command, Scope scope, UUID entityId, UUID accountId) {
        if (accountId != null && !scope.ownedByAccount()) {
            throw new ParameterException(
                    command,
                    "--account is for the account_channel and account scopes; the " + scope.label()
                            + " scope takes --entity");
        }
        if (entityId != null && scope.ownedByAccount()) {
            throw new ParameterException(
                    command,
                    "--entity is for the key and entity scopes; the " + scope.label() + " scope takes --account");
        }
    }
}
