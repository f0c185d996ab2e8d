package io.risklimits.cli;

import io.risklimits.backtest.BacktestReport;
import io.risklimits.backtest.Change;
import io.risklimits.backtest.Scope;
import io.risklimits.backtest.ScopeReport;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Locale;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** A backtest's result as the operator reads it: a table per scope, or one JSON document (docs/operations.md). */
record BacktestOutput(
        Instant from, Instant to, ZoneId zone, int proposedRows, BacktestReport report, long rowsRead, double seconds) {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    void printText(PrintWriter out) {
        out.println("backtest of " + from + " .. " + to + " (time zone " + zone.getId() + ") against " + proposedRows
                + " proposed limit rows");
        TextTable table = new TextTable(
                "channel",
                "direction",
                "entity",
                "keys",
                "authorizations",
                "approved->rejected",
                "amount",
                "rejected->approved",
                "amount",
                "reversals",
                "released->rejected",
                "rejected->released",
                "original archived");
        report.scopes().forEach(scope -> addRow(table, scope));
        addRow(table, report.totals());
        table.print(out, "");
        if (!report.totals().approvedToRejectedByReason().isEmpty()) {
            out.println("approved->rejected by reason:");
            TextTable reasons = new TextTable("reason", "count", "amount");
            report.totals()
                    .approvedToRejectedByReason()
                    .forEach((reason, change) -> reasons.row(reason, change.count(), change.amount()));
            reasons.print(out, "  ");
        }
        if (!report.totals().rejectedToApprovedByReason().isEmpty()) {
            out.println("rejected->approved by stored reason:");
            TextTable reasons = new TextTable("reason", "count", "amount");
            report.totals()
                    .rejectedToApprovedByReason()
                    .forEach((reason, change) -> reasons.row(reason, change.count(), change.amount()));
            reasons.print(out, "  ");
        }
        out.println(String.format(
                Locale.ROOT, "rows read: %d in %.2f s (%.0f rows/s)", rowsRead, seconds, rowsPerSecond()));
    }

    void printJson(PrintWriter out) {
        ObjectNode document = JSON.createObjectNode();
        document.put("from", from.toString());
        document.put("to", to.toString());
        document.put("time_zone", zone.getId());
        document.put("proposed_rows", proposedRows);
        var scopes = document.putArray("scopes");
        for (ScopeReport scope : report.scopes()) {
            ObjectNode entry = scopes.addObject();
            entry.set("scope", scopeJson(scope.scope()));
            entry.setAll(json(scope));
        }
        document.set("totals", json(report.totals()));
        document.put("rows_read", rowsRead);
        document.put("seconds", seconds);
        document.put("rows_per_second", Math.round(rowsPerSecond()));
        out.println(JSON.writeValueAsString(document));
    }

    private double rowsPerSecond() {
        return seconds > 0 ? rowsRead / seconds : 0;
    }

    private static void addRow(TextTable table, ScopeReport report) {
        Scope scope = report.scope();
        String channel = scope == null ? "total" : scope.isUnlimited() ? "unlimited" : scope.channel();
        boolean named = scope != null && !scope.isUnlimited();
        table.row(
                channel,
                named ? scope.direction() : null,
                named ? (scope.entityId() == null ? "*" : scope.entityId()) : null,
                report.keys(),
                report.authorizations(),
                report.approvedToRejected().count(),
                report.approvedToRejected().amount(),
                report.rejectedToApproved().count(),
                report.rejectedToApproved().amount(),
                report.reversals(),
                report.releasedToRejected().count(),
                report.rejectedToReleased().count(),
                report.originalArchived().count());
    }

    private static ObjectNode json(ScopeReport report) {
        ObjectNode node = JSON.createObjectNode();
        node.put("keys", report.keys());
        node.put("authorizations", report.authorizations());
        ObjectNode toRejected = change(report.approvedToRejected());
        ObjectNode byReason = toRejected.putObject("by_reason");
        report.approvedToRejectedByReason().forEach((reason, change) -> byReason.set(reason.name(), change(change)));
        node.set("approved_to_rejected", toRejected);
        ObjectNode toApproved = change(report.rejectedToApproved());
        ObjectNode byStoredReason = toApproved.putObject("by_reason");
        report.rejectedToApprovedByReason()
                .forEach((reason, change) -> byStoredReason.set(reason.name(), change(change)));
        node.set("rejected_to_approved", toApproved);
        node.put("reversals", report.reversals());
        node.set("released_to_rejected", change(report.releasedToRejected()));
        node.set("rejected_to_released", change(report.rejectedToReleased()));
        node.set("original_archived", change(report.originalArchived()));
        return node;
    }

    private static ObjectNode change(Change change) {
        ObjectNode node = JSON.createObjectNode();
        node.put("count", change.count());
        node.put("amount", change.amount());
        return node;
    }

    /** null for the keys no proposed row matches. */
    private static JsonNode scopeJson(Scope scope) {
        if (scope.isUnlimited()) {
            return JSON.createObjectNode().nullNode();
        }
        ObjectNode node = JSON.createObjectNode();
        node.put("channel", scope.channel());
        node.put("direction", scope.direction());
        node.put("entity_id", scope.entityId() == null ? null : scope.entityId().toString());
        return node;
    }
}
