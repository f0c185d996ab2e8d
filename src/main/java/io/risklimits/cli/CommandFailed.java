package io.risklimits.cli;

/**
 * An expected failure of a command (not found, unreachable, timed out): reported as one line on
 * stderr with exit code 1, never as a stack trace.
 */
final class CommandFailed extends RuntimeException {

    CommandFailed(String message) {
        super(message, null, false, false);
    }
}
