package io.risklimits.cli;

import org.springframework.core.NestedExceptionUtils;

/** One readable line for an unexpected failure: the innermost cause usually says what went wrong. */
final class FailureMessages {

    private FailureMessages() {}

    static String describe(Throwable failure) {
        Throwable cause = NestedExceptionUtils.getMostSpecificCause(failure);
        String message = cause.getMessage();
        return message == null || message.isBlank() ? cause.toString() : message;
    }
}
