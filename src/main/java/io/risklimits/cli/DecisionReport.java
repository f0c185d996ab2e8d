package io.risklimits.cli;

import io.risklimits.decision.Limit;
import io.risklimits.decision.Scope;
import io.risklimits.decision.ScopeKey;
import io.risklimits.decision.Window;
import java.io.PrintWriter;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Prints one logged decision so that it explains itself: per window with a limit in force the usage
 * before the event, the limit applied, and whether this event fit under it (the first window that did
 * not is the reason), and what shadow limits would have decided; for an authorization, the account it
 * carried, every scope key it was counted at, the follow-ups that name it and, when it has a ledger, what
 * of it is still counted and held.
 */
final class DecisionReport {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private DecisionReport() {}

    /**
     * @param followUps for an authorization, the follow-ups and expiry that name it, in the order decided
     *     (empty otherwise)
     * @param ledger for an authorization, its ledger if it has one
     */
    static void print(
            LoggedDecision decision,
            List<LoggedDecision> followUps,
            Optional<LedgerLookup.Ledger> ledger,
            PrintWriter out) {
        TextTable fields = new TextTable("dedupe_id", decision.dedupeId().toString())
                .row("business key", decision.entityId() == null ? "unreadable" : decision.businessKey())
                .row("account_id", decision.accountId())
                .row("type", decision.type())
                .row("reverses", decision.reverses())
                .row("original", decision.original())
                .row("hold_expires_at", decision.holdExpiresAt())
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
        if (decision.isFinal() != null) {
            fields.row("final", decision.isFinal());
        }
        if (decision.captured() != null) {
            fields.row("captured", decision.captured());
        }
        if (decision.overCaptured() != null) {
            fields.row("over_captured", decision.overCaptured());
        }
        if (decision.entityId() != null && decision.isAuthorization()) {
            countedAt(decision, fields);
        }
        fields.print(out, "");
        if (decision.usage() != null && decision.limits() != null) {
            printWindows(decision, out);
        }
        if (!followUps.isEmpty()) {
            printFollowUps(followUps, out);
        }
        if ("APPROVED".equals(decision.decision()) && (ledger.isPresent() || !followUps.isEmpty())) {
            printRemaining(decision, followUps, ledger, out);
        }
        ledger.ifPresent(found -> printLedger(found, out));
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

    /** An authorization's follow-ups and expiry, in the order decided. */
    private static void printFollowUps(List<LoggedDecision> followUps, PrintWriter out) {
        TextTable table = new TextTable(
                "follow-up",
                "type",
                "decision",
                "reason",
                "amount",
                "released",
                "captured",
                "over_captured",
                "decided_at");
        for (LoggedDecision followUp : followUps) {
            table.row(
                    followUp.dedupeId(),
                    followUp.type(),
                    followUp.decision(),
                    followUp.reason(),
                    followUp.amount(),
                    released(followUp),
                    followUp.captured(),
                    followUp.overCaptured(),
                    followUp.decidedAt());
        }
        out.println();
        table.print(out, "");
    }

    // a reversal that released nothing released 0; other follow-ups release nothing themselves, bar an expiry
    private static Long released(LoggedDecision followUp) {
        if (followUp.releasedAmount() == null && followUp.isReversal()) {
            return 0L;
        }
        return followUp.releasedAmount();
    }

    /**
     * What of an approved authorization is still counted, of all that was counted of it: from its ledger
     * when it has one (increments and over-captures included), else its amount less its releases.
     */
    private static void printRemaining(
            LoggedDecision authorization,
            List<LoggedDecision> followUps,
            Optional<LedgerLookup.Ledger> ledger,
            PrintWriter out) {
        if (ledger.isPresent()) {
            out.println("remaining: " + ledger.get().counted() + " of "
                    + ledger.get().everCounted() + " still counted");
            return;
        }
        if (authorization.amount() == null) {
            return;
        }
        long released = followUps.stream()
                .map(DecisionReport::released)
                .filter(amount -> amount != null)
                .mapToLong(Long::longValue)
                .sum();
        out.println("remaining: " + (authorization.amount() - released) + " of " + authorization.amount()
                + " still counted");
    }

    /** What the authorization's ledger says of it now: where its hold stands, what is counted, captured and held. */
    private static void printLedger(LedgerLookup.Ledger ledger, PrintWriter out) {
        out.println();
        out.println("ledger:");
        new TextTable("status", ledger.status())
                .row("expires_at", ledger.expiresAt() == null ? "never: a final spend" : ledger.expiresAt())
                .row("authorized", ledger.authorized())
                .row("counted", ledger.counted())
                .row("captured", ledger.captured())
                .row("held", ledger.held())
                .print(out, "  ");
        TextTable parts = new TextTable("counted part", "hour", "amount", "released");
        for (LedgerLookup.Part part : ledger.parts()) {
            parts.row(part.kind(), part.hour(), part.amount(), part.released());
        }
        parts.print(out, "  ");
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
                    thisEvent(decision, window, limit, usedAmount, usedCount));
        }
        out.println();
        if (limits.isEmpty()) {
            out.println("no limit in force: every window unlimited");
        } else {
            windows.print(out, "");
        }
    }

    // what the window made of the event: an authorization is checked for its amount and a count of 1, an
    // increment for its amount alone (its authorization is counted already), the others are never checked
    private static String thisEvent(
            LoggedDecision decision, Window window, Limit limit, long usedAmount, long usedCount) {
        String type = decision.type() == null ? "AUTHORIZATION" : decision.type();
        return switch (type) {
            case "REVERSAL", "EXPIRY" -> "uses no limit";
            case "CAPTURE" -> "not checked: a capture is never rejected";
            case "INCREMENT" ->
                window == Window.TXN
                        ? "checked against the hold's new total"
                        : fit(window, limit, usedAmount, usedCount, decision.amount(), false);
            default -> fit(window, limit, usedAmount, usedCount, decision.amount(), true);
        };
    }

    private static String fit(
            Window window, Limit limit, long usedAmount, long usedCount, Long amount, boolean countsOne) {
        boolean amountFits = amount == null || limit.admitsAmount(usedAmount, amount);
        boolean countFits = !countsOne || !window.countsUsage() || limit.admitsOneMore(usedCount);
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
