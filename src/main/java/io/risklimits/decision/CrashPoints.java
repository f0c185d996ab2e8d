package io.risklimits.decision;

import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Failpoints for the fault suite (src/test/java/io/risklimits/faults): with risk.failpoints.crash-at
 * set, the process halts, as abruptly as kill -9, the n-th time a poll reaches that point. Off unless
 * set; a production deployment never sets it. The points are where a crash is hardest to recover
 * from: inside the transaction, between the commit and the sends, and between the sends and the
 * offset commit.
 */
@Component
class CrashPoints {

    enum Point {
        BEFORE_COMMIT,
        AFTER_COMMIT,
        AFTER_SEND
    }

    private static final int HALT_STATUS = 137; // what a shell reports for kill -9

    private final Point armed;
    private final int onPoll;
    private final AtomicInteger reached = new AtomicInteger();

    CrashPoints(
            @Value("${risk.failpoints.crash-at:}") String crashAt,
            @Value("${risk.failpoints.crash-on-poll:3}") int onPoll) {
        this.armed = crashAt.isBlank()
                ? null
                : Point.valueOf(crashAt.trim().toUpperCase().replace('-', '_'));
        this.onPoll = onPoll;
    }

    void reached(Point point) {
        if (point == armed && reached.incrementAndGet() == onPoll) {
            System.err.println("risk.failpoints: halting at " + point + " on poll " + onPoll);
            System.err.flush();
            Runtime.getRuntime().halt(HALT_STATUS);
        }
    }
}
