package io.risklimits.cli;

import io.risklimits.decision.Scope;
import java.util.UUID;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;

/** The row scope of risk_limit rows (scope, channel, direction, entity or account), as the limits commands take it. */
final class LimitScope {

    @Option(
            names = "--scope",
            paramLabel = "SCOPE",
            defaultValue = "key",
            converter = ScopeLabel.class,
            description = "key (the business key, default), entity (the entity over all channels), account_channel"
                    + " (the account's entities on one channel) or account (the account over everything)")
    Scope scope;

    @Option(
            names = "--channel",
            required = true,
            converter = Converters.ChannelOrAny.class,
            description = "a channel, or * for any (always * for the entity and account scopes)")
    String channel;

    @Option(
            names = "--direction",
            required = true,
            converter = Converters.DirectionOrAny.class,
            description = "IN, OUT, or * for any")
    String direction;

    @Option(
            names = "--entity",
            paramLabel = "UUID",
            converter = Converters.Uuid.class,
            description = "one entity's override (key and entity scopes)")
    UUID entityId;

    @Option(
            names = "--account",
            paramLabel = "UUID",
            converter = Converters.Uuid.class,
            description = "one account's override (account_channel and account scopes)")
    UUID accountId;

    /** Refuses, as a usage error, options that name no row of the scope: before anything touches the database. */
    void check(CommandLine command) {
        RowScope.refuseOwnersOfAnotherScope(command, scope, entityId, accountId);
        if (scope.spansChannels() && !channel.equals(Converters.ANY)) {
            throw new ParameterException(
                    command, "the " + scope.label() + " scope takes --channel *: " + RowScope.ADD_UP_EVERY_CHANNEL);
        }
    }

    RowScope rowScope() {
        return new RowScope(scope, channel, direction, entityId, accountId);
    }

    /** The scope as operators read it. */
    String describe() {
        return rowScope().describe();
    }

    static final class ScopeLabel implements ITypeConverter<Scope> {
        @Override
        public Scope convert(String value) {
            for (Scope scope : Scope.values()) {
                if (scope.label().equals(value)) {
                    return scope;
                }
            }
            throw new TypeConversionException(
                    "expected key, entity, account_channel or account but was '" + value + "'");
        }
    }
}
