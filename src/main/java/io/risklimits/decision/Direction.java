package io.risklimits.decision;

public enum Direction {
    IN,
    OUT
}
