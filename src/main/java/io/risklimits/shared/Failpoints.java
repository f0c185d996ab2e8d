package io.risklimits.shared;

import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The fault suite's failpoints (src/test/java/io/risklimits/faults), and the only place they live:
 * with risk.failpoints.crash-at set, the process halts, as abruptly as kill -9, the n-th time a poll
 * (or, for the hold sweep's points, a sweep) reaches that point. Inert unless that property is set,
 * which a deployment never does. The points are where a crash is hardest to recover from: inside the
 * transaction, between the commit and the sends, and between the sends and the offset commit; in the
 * hold sweep, between the commit of the expiries and their sends, and between the broker's
 * confirmation of the sends and the record that they were sent.
 *
 * @param armed the point risk.failpoints.crash-at names (before-commit, after-commit, after-send,
 *     after-expiry-commit, after-expiry-sent); null when it is not set
 * @param onPoll risk.failpoints.crash-on-poll: reaching the armed point this many times halts the process
 * @param timesReached how often this process has reached the armed point
 */
@ConfigurationProperties("risk.failpoints")
public record Failpoints(Point armed, int onPoll, AtomicInteger timesReached) {

    public enum Point {
        BEFORE_COMMIT,
        AFTER_COMMIT,
        AFTER_SEND,
        /** A sweep committed the expiry of due holds, and has sent none of them. */
        AFTER_EXPIRY_COMMIT,
        /** The broker confirmed a sweep's sends of pending expiries, which are not yet recorded as sent. */
        AFTER_EXPIRY_SENT
    }

    private static final int HALT_STATUS = 137; // what a shell reports for kill -9

    @ConstructorBinding
    public Failpoints(String crashAt, @DefaultValue("3") int crashOnPoll) {
        this(
                crashAt == null || crashAt.isBlank()
                        ? null
                        : Point.valueOf(crashAt.trim().toUpperCase().replace('-', '_')),
                crashOnPoll,
                new AtomicInteger());
    }

    public void reached(Point point) {
        if (point == armed && timesReached.incrementAndGet() == onPoll) {
            System.err.println("risk.failpoints: halting at " + point + " on poll " + onPoll);
            System.err.flush();
            Runtime.getRuntime().halt(HALT_STATUS);
        }
    }
}
