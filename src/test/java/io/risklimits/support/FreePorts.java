package io.risklimits.support;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for servers the tests start, taken below the operating systems' ephemeral ranges (32768 and
 * up on Linux, 49152 and up on macOS and Windows). A port from {@code new ServerSocket(0)} lies inside
 * that range, and in the seconds before a worker process binds it an outgoing connection of any process
 * may take it as its local port: the worker then fails with "port already in use".
 */
public final class FreePorts {

    private static final int FIRST = 20_000;
    private static final int LAST = 32_000;
    private static final Set<Integer> HANDED_OUT = new HashSet<>();

    private FreePorts() {}

    /** A port nothing listens on now and that this JVM has not handed out before. */
    public static synchronized int next() throws IOException {
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(FIRST, LAST + 1);
            if (HANDED_OUT.contains(port)) {
                continue;
            }
            try (ServerSocket probe = new ServerSocket(port)) {
                HANDED_OUT.add(port);
                return probe.getLocalPort();
            } catch (IOException taken) {
                // in use: try another
            }
        }
        throw new IOException("no free port between " + FIRST + " and " + LAST);
    }
}
