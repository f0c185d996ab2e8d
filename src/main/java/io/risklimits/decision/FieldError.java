package io.risklimits.decision;

/** One reason an event is invalid: the field (as named in the event) and what is wrong with it. */
public record FieldError(String field, String message) {}
