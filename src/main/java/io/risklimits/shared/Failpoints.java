package io.risklimits.shared;

import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The fault suite's failpoints (src/test/java/io/risklimits/faults), and the only place they live:
 * with risk.failpoints.crash-at set, the process halts, as abruptly as kill -9, the n-th time a poll
 * reaches that point. Inert unless that property is set, which a deployment never does. The points
 * are where a crash is hardest to recover from: inside the transaction, between the commit and the
 * sends, and between the sends and the offset commit.
 */
@Component
public class Failpoints {

    public enum Point {
        BEFORE_COMMIT,
        AFTER_COMMIT,
        AFTER_SEND
    }

    private static final int HALT_STATUS = 137; // what a shell reports for kill -9

    private final Point armed;
    private final int onPoll;
    private final AtomicInteger reached = new AtomicInteger();

    public Failpoints(
            @Value("${risk.failpoints.crash-at:}") String crashAt,
            @Value("${risk.failpoints.crash-on-poll:3}") int onPoll) {
        this.armed = crashAt.isBlank()
                ? null
                : Point.valueOf(crashAt.trim().toUpperCase().replace('-', '_'));
        this.onPoll = onPoll;
    }

    public void reached(Point point) {
        if (point == armed && reached.incrementAndGet() == onPoll) {
            System.err.println("risk.failpoints: halting at " + point + " on poll " + onPoll);
            System.err.flush();
            Runtime.getRuntime().halt(HALT_STATUS);
        }
    }
}
