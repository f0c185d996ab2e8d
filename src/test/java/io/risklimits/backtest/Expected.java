package io.risklimits.backtest;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;

/**
 * What a backtest reports for one scope, as counted by the test's reference model or read from the
 * command's JSON: {count, amount} pairs, and the approved-to-rejected flips by reason.
 */
record Expected(
        long[] keys,
        long[] authorizations,
        long[] approvedToRejected,
        long[] rejectedToApproved,
        long[] reversals,
        long[] releasedToRejected,
        long[] rejectedToReleased,
        Map<String, String> byReason) {

    static Expected empty() {
        return new Expected(
                new long[1],
                new long[1],
                new long[2],
                new long[2],
                new long[1],
                new long[2],
                new long[2],
                new TreeMap<>());
    }

    /** Counts one event of the period: its stored outcome against the one decided again. */
    void count(HistoryEvent event, String[] again) {
        if (event.kind == HistoryEvent.Kind.AUTHORIZATION) {
            authorizations[0]++;
            if (event.decision.equals("APPROVED") && again[0].equals("REJECTED")) {
                add(approvedToRejected, event.amount);
                long[] reason = parse(byReason.get(again[1]));
                add(reason, event.amount);
                byReason.put(again[1], reason[0] + "/" + reason[1]);
            } else if (event.decision.equals("REJECTED") && again[0].equals("APPROVED")) {
                add(rejectedToApproved, event.amount);
            }
        } else if (event.kind == HistoryEvent.Kind.REVERSAL) {
            reversals[0]++;
            if (event.decision.equals("RELEASED") && !again[0].equals("RELEASED")) {
                add(releasedToRejected, event.amount);
            } else if (event.decision.equals("REJECTED") && again[0].equals("RELEASED")) {
                add(rejectedToReleased, event.amount);
            }
        }
    }

    static Expected of(JsonNode scope) {
        Expected found = empty();
        found.keys[0] = scope.get("keys").longValue();
        found.authorizations[0] = scope.get("authorizations").longValue();
        read(scope.get("approved_to_rejected"), found.approvedToRejected);
        read(scope.get("rejected_to_approved"), found.rejectedToApproved);
        found.reversals[0] = scope.get("reversals").longValue();
        read(scope.get("released_to_rejected"), found.releasedToRejected);
        read(scope.get("rejected_to_released"), found.rejectedToReleased);
        for (Map.Entry<String, JsonNode> reason :
                scope.get("approved_to_rejected").get("by_reason").properties()) {
            found.byReason.put(
                    reason.getKey(),
                    reason.getValue().get("count").longValue() + "/"
                            + reason.getValue().get("amount").longValue());
        }
        return found;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Expected that && toString().equals(that.toString());
    }

    @Override
    public int hashCode() {
        return toString().hashCode();
    }

    @Override
    public String toString() {
        return "keys " + keys[0] + ", authorizations " + authorizations[0] + ", approved->rejected "
                + Arrays.toString(approvedToRejected) + " " + byReason + ", rejected->approved "
                + Arrays.toString(rejectedToApproved) + ", reversals " + reversals[0] + ", released->rejected "
                + Arrays.toString(releasedToRejected) + ", rejected->released " + Arrays.toString(rejectedToReleased);
    }

    private static void read(JsonNode change, long[] into) {
        into[0] = change.get("count").longValue();
        into[1] = change.get("amount").longValue();
    }

    private static void add(long[] change, long amount) {
        change[0]++;
        change[1] += amount;
    }

    private static long[] parse(String countSlashAmount) {
        if (countSlashAmount == null) {
            return new long[2];
        }
        String[] parts = countSlashAmount.split("/");
        return new long[] {Long.parseLong(parts[0]), Long.parseLong(parts[1])};
    }
}
