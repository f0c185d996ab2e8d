package io.risklimits.startup;

import io.risklimits.shared.StartRefused;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Settings the service refuses to start with, because they fail later and quietly: a connection
 * pool too small for the threads that each hold a connection (the decider stalls behind the
 * archiver, or the archiver's workers time out one by one), and TLS switched off explicitly
 * towards another machine (credentials and every decision in clear on the network).
 */
final class UnsafeSettings {

    private static final Pattern HOST = Pattern.compile("^jdbc:postgresql://(\\[[^]]*]|[^/:?,]*)");
    private static final Pattern SSL_MODE = Pattern.compile("[?&]sslmode=([^&]*)", Pattern.CASE_INSENSITIVE);
    private static final List<String> LOCAL_HOSTS = List.of("", "localhost", "127.0.0.1", "[::1]");

    private UnsafeSettings() {}

    /**
     * @param deciderThreads risk.decider.concurrency when this process decides, else 0
     * @param archiverWorkers risk.archiver.workers when this process archives, else 0
     */
    record Settings(
            int maximumPoolSize, int deciderThreads, int archiverWorkers, String jdbcUrl, boolean allowInsecure) {}

    /** Every reason to refuse, each naming the property to change; empty when the settings are safe. */
    static List<String> problems(Settings settings) {
        List<String> problems = new ArrayList<>();
        int needed = connectionsNeeded(settings);
        if (settings.maximumPoolSize() < needed) {
            problems.add("spring.datasource.hikari.maximum-pool-size is " + settings.maximumPoolSize()
                    + " but this process needs at least " + needed + " connections at once (risk.decider.concurrency "
                    + settings.deciderThreads() + " + risk.archiver.workers " + settings.archiverWorkers()
                    + (settings.archiverWorkers() > 0 ? " + 1 for the archiver's own thread" : "")
                    + " + 1 for the limit refresh): threads would wait for connections and time out instead of"
                    + " deciding; raise the pool or lower the threads");
        }
        if (sslDisabledTowardsAnotherHost(settings.jdbcUrl()) && !settings.allowInsecure()) {
            problems.add("spring.datasource.url has sslmode=disable for host " + host(settings.jdbcUrl())
                    + ": the password and every decision would cross the network in clear; use sslmode=verify-full"
                    + " (or require), or set risk.database.allow-insecure=true for a network you trust");
        }
        return problems;
    }

    static void refuseToStart(Settings settings) {
        List<String> problems = problems(settings);
        if (!problems.isEmpty()) {
            throw new StartRefused(String.join("; ", problems), "Change the settings named above.");
        }
    }

    static int connectionsNeeded(Settings settings) {
        int archiverThread = settings.archiverWorkers() > 0 ? 1 : 0;
        return settings.deciderThreads() + settings.archiverWorkers() + archiverThread + 1;
    }

    private static boolean sslDisabledTowardsAnotherHost(String jdbcUrl) {
        if (jdbcUrl == null) {
            return false;
        }
        Matcher sslMode = SSL_MODE.matcher(jdbcUrl);
        boolean disabled = sslMode.find() && sslMode.group(1).equalsIgnoreCase("disable");
        return disabled && !LOCAL_HOSTS.contains(host(jdbcUrl));
    }

    private static String host(String jdbcUrl) {
        Matcher host = HOST.matcher(jdbcUrl);
        return host.find() ? host.group(1).toLowerCase(Locale.ROOT) : "";
    }
}
