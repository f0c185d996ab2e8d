package io.risklimits.cli;

import io.risklimits.decision.Direction;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
        name = "explain",
        description = {
            "Explains the decision made for a dedupe_id from the audit log: decision, reason, usage before"
                    + " the event and the limits applied per window, when it was decided; for an authorization"
                    + " the account it carried, every scope key it was counted at, its hold's expiry, every"
                    + " follow-up that names it (reversals, captures, increments, its expiry) and, from its"
                    + " ledger, what is still counted and held; for a reversal what it released, for a capture"
                    + " what it captured and counted anew.",
            "A dedupe_id is unique per business key only: every key it was filed under is shown. On a large"
                    + " log give --entity, --channel and --direction, which look the row up by its primary key."
        })
final class ExplainCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DEDUPE_ID", converter = Converters.Uuid.class)
    UUID dedupeId;

    @Option(
            names = "--entity",
            paramLabel = "UUID",
            converter = Converters.Uuid.class,
            description = "only this entity")
    UUID entityId;

    @Option(names = "--channel", converter = Converters.Channel.class, description = "only this channel")
    String channel;

    @Option(names = "--direction", description = "only IN or OUT")
    Direction direction;

    @Mixin
    DatabaseOptions database;

    @Override
    public Integer call() {
        String onlyDirection = direction == null ? null : direction.name();
        List<LoggedDecision> found;
        Map<LoggedDecision, List<LoggedDecision>> followUps = new HashMap<>();
        Map<LoggedDecision, Optional<LedgerLookup.Ledger>> ledgers = new HashMap<>();
        try (Database db = database.open()) {
            RequestLogLookup lookup = new RequestLogLookup(db.jdbc());
            LedgerLookup ledgerLookup = new LedgerLookup(db.jdbc());
            found = new ArrayList<>();
            for (LoggedDecision decision : lookup.find(dedupeId, entityId, channel, onlyDirection)) {
                found.add(decision);
                boolean filedAuthorization = "AUTHORIZATION".equals(decision.type()) && decision.entityId() != null;
                followUps.put(decision, filedAuthorization ? lookup.followUpsOf(decision) : List.of());
                ledgers.put(decision, filedAuthorization ? ledgerLookup.of(decision) : Optional.empty());
            }
        }
        if (found.isEmpty()) {
            throw new CommandFailed("no decision for dedupe_id " + dedupeId
                    + (entityId == null && channel == null && onlyDirection == null ? "" : " under that business key")
                    + ": not received yet, still in flight, or archived past the retention");
        }
        PrintWriter out = spec.commandLine().getOut();
        if (found.size() > 1) {
            out.println("dedupe_id " + dedupeId + " was filed under " + found.size() + " business keys:");
            found.forEach(each -> out.println("  " + each.businessKey() + "  " + each.decision()));
        }
        for (int index = 0; index < found.size(); index++) {
            if (found.size() > 1) {
                out.println();
            }
            LoggedDecision decision = found.get(index);
            DecisionReport.print(decision, followUps.get(decision), ledgers.get(decision), out);
        }
        return 0;
    }
}
