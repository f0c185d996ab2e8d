package io.risklimits.shared;

/**
 * A setting this worker will not start with. Thrown before any connection is opened, so a refused
 * start decides nothing and creates nothing; the start-up failure analyzer prints it as the
 * reason the start-up failed.
 */
public class StartRefused extends IllegalStateException {

    private final String action;

    public StartRefused(String problem, String action) {
        super("Refusing to start: " + problem);
        this.action = action;
    }

    /** What the operator should change. */
    public String action() {
        return action;
    }
}
