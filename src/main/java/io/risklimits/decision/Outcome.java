package io.risklimits.decision;

/** What the limit policy concluded for one event: approved, or rejected for the first failing limit. */
public record Outcome(Verdict verdict, Reason reason) {

    public static Outcome approved() {
        return new Outcome(Verdict.APPROVED, null);
    }

    public static Outcome rejectedFor(Reason reason) {
        return new Outcome(Verdict.REJECTED, reason);
    }

    public boolean isApproved() {
        return verdict == Verdict.APPROVED;
    }
}
