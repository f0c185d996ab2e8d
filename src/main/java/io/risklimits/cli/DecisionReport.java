package io.risklimits.cli;

import io.risklimits.decision.Limit;
import io.risklimits.decision.Scope;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Window;
import java.io.PrintWriter;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Prints one logged decision so that it explains itself: per window with a limit in force the usage
 * before the event, the limit applied, and whether this event fit under it (the first window that did
 * not is the reason), and what shadow limits would have decided; for an authorization, the account it
 * carried and every scope key it was counted at.
 */
final class DecisionReport {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private DecisionReport() {}

    /** @param reversals for an authorization, the reversals that name it (empty otherwise) */
    static void print(LoggedDecision decision, List<LoggedDecision> reversals, PrintWriter out) {
        TextTable fields = new TextTable("dedupe_id", decision.dedupeId().toString())
                .row("business key", decision.entityId() == null ? "unreadable" : decision.businessKey())
                .row("account_id", decision.accountId())
                .row("type", decision.type())
                .row("reverses", decision.reverses())
                .row("decision", decision.decision())
                .row("reason", decision.reason())
                .row("shadow limits", decision.shadow())
                .row("amount", decision.amount() == null ? null : decision.amount() + " " + decision.currency())
                .row("occurred_at", decision.occurredAt())
                .row("decided_at", decision.decidedAt())
                .row(
                        "bucket_ts",
                        decision.bucketTs() == null ? null : decision.bucketTs().toInstant(ZoneOffset.UTC))
                .row("filed in", decision.table());
        if (decision.releasedAmount() != null) {
            fields.row(
                    "released",
                    decision.releasedAmount() + (decision.releasedCount() == 1 ? " and the count of 1" : ""));
        }
        if (decision.remaining() != null) {
            fields.row("original remaining", decision.remaining());
        }
        if (decision.entityId() != null && !decision.isReversal()) {
            countedAt(decision, fields);
        }
        fields.print(out, "");
        if (decision.usage() != null && decision.limits() != null) {
            printWindows(decision, out);
        }
        if (!reversals.isEmpty()) {
            printReversals(decision, reversals, out);
        }
        if (decision.errors() != null) {
            out.println("errors:");
            for (JsonNode error : JSON.readTree(decision.errors())) {
                out.println("  " + error.path("field").asString() + ": "
                        + error.path("message").asString());
            }
        }
    }

    // one line per scope key: the scope's name, then owner:channel:direction
    private static void countedAt(LoggedDecision authorization, TextTable fields) {
        List<ScopeKey> scopeKeys = authorization.countedAt();
        if (scopeKeys.isEmpty()) {
            fields.row("counted at", "nowhere: not approved");
            return;
        }
        int labelWidth = Arrays.stream(Scope.values())
                .mapToInt(scope -> scope.label().length())
                .max()
                .orElseThrow();
        for (int index = 0; index < scopeKeys.size(); index++) {
            ScopeKey scopeKey = scopeKeys.get(index);
            String label = scopeKey.scope().label();
            fields.row(
                    index == 0 ? "counted at" : "",
                    label + " ".repeat(labelWidth - label.length() + 2) + scopeKey.owner() + ":" + scopeKey.channel()
                            + ":" + scopeKey.direction());
        }
    }

    /** An authorization's reversals, in the order decided, and what of it is still counted. */
    private static void printReversals(LoggedDecision authorization, List<LoggedDecision> reversals, PrintWriter out) {
        TextTable table = new TextTable("reversal", "decision", "reason", "amount", "released", "decided_at");
        long released = 0;
        for (LoggedDecision reversal : reversals) {
            long amount = reversal.releasedAmount() == null ? 0 : reversal.releasedAmount();
            released += amount;
            table.row(
                    reversal.dedupeId(),
                    reversal.decision(),
                    reversal.reason(),
                    reversal.amount(),
                    amount,
                    reversal.decidedAt());
        }
        out.println();
        table.print(out, "");
        if ("APPROVED".equals(authorization.decision()) && authorization.amount() != null) {
            out.println("remaining: " + (authorization.amount() - released) + " of " + authorization.amount()
                    + " still counted");
        }
    }

    // the windows with a limit in force when the decision was made; the others were unlimited
    private static void printWindows(LoggedDecision decision, PrintWriter out) {
        JsonNode usage = JSON.readTree(decision.usage());
        JsonNode limits = JSON.readTree(decision.limits());
        TextTable windows =
                new TextTable("window", "used_amount", "used_count", "max_amount", "max_count", "this event");
        for (Window window : Window.values()) {
            if (!limits.has(window.label())) {
                continue;
            }
            long usedAmount = usage.path(window.label()).path("amount").asLong();
            long usedCount = usage.path(window.label()).path("count").asLong();
            Limit limit = new Limit(
                    longOrNull(limits.path(window.label()).path("amount")),
                    longOrNull(limits.path(window.label()).path("count")));
            windows.row(
                    window.label(),
                    usedAmount,
                    usedCount,
                    limit.maxAmount() == null ? "unlimited" : limit.maxAmount(),
                    limit.maxCount() == null ? "-" : limit.maxCount(),
                    decision.isReversal()
                            ? "uses no limit"
                            : fit(window, limit, usedAmount, usedCount, decision.amount()));
        }
        out.println();
        if (limits.isEmpty()) {
            out.println("no limit in force: every window unlimited");
        } else {
            windows.print(out, "");
        }
    }

    private static String fit(Window window, Limit limit, long usedAmount, long usedCount, Long amount) {
        boolean amountFits = amount == null || limit.admitsAmount(usedAmount, amount);
        boolean countFits = !window.countsUsage() || limit.admitsOneMore(usedCount);
        if (amountFits && countFits) {
            return "fits";
        }
        if (!amountFits && !countFits) {
            return "amount and count over the limit";
        }
        return amountFits ? "count over the limit" : "amount over the limit";
    }

    private static Long longOrNull(JsonNode node) {
        return node.isIntegralNumber() ? node.longValue() : null;
    }
}
