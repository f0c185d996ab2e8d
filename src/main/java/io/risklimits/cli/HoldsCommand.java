package io.risklimits.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(
        name = "holds",
        description = {
            "Lists the open holds of a business key from risk_authorization_ledger, the soonest to expire first:"
                    + " each authorization's dedupe_id, what it authorized (its amount and approved increments),"
                    + " what captures took of it, what it still holds, and when it expires. Reads only.",
            "A hold past its expiry is listed until a decision of its key or the sweep expires it; no decision"
                    + " made after its expiry counts it."
        })
final class HoldsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    BusinessKeyOptions businessKey;

    @Mixin
    DatabaseOptions database;

    @Override
    public Integer call() {
        List<LedgerLookup.Ledger> holds;
        try (Database db = database.open()) {
            holds = new LedgerLookup(db.jdbc())
                    .openHolds(businessKey.entityId, businessKey.channel, businessKey.direction.name());
        }
        PrintWriter out = spec.commandLine().getOut();
        String keyName = businessKey.businessKey().recordKey();
        if (holds.isEmpty()) {
            out.println("no open holds under " + keyName);
            return 0;
        }
        TextTable table = new TextTable("dedupe_id", "authorized", "captured", "held", "expires_at");
        long held = 0;
        for (LedgerLookup.Ledger hold : holds) {
            table.row(hold.dedupeId(), hold.authorized(), hold.captured(), hold.held(), hold.expiresAt());
            held += hold.held();
        }
        table.print(out, "");
        out.println(holds.size() + (holds.size() == 1 ? " open hold" : " open holds") + " under " + keyName
                + ", holding " + held);
        return 0;
    }
}
