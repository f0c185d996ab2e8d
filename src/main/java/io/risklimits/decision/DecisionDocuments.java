package io.risklimits.decision;

import java.util.function.Supplier;

/**
 * A decision's usage and scopes documents, as the request log stores them and its message carries them,
 * each written once, when first asked for ({@link DecisionJson}). Every {@link Decision} makes its own
 * when it is made, so it never holds the texts of another decision; it takes no part in a decision's
 * equality, since the texts follow from the decision's other components.
 */
public final class DecisionDocuments {

    // written on the decider's thread; a String is immutable, so a reader on another thread sees either
    // null (and writes the same text again) or the whole text
    private String usage;
    private String scopes;

    DecisionDocuments() {}

    String usage(Supplier<String> writer) {
        String text = usage;
        if (text == null) {
            text = writer.get();
            usage = text;
        }
        return text;
    }

    String scopes(Supplier<String> writer) {
        String text = scopes;
        if (text == null) {
            text = writer.get();
            scopes = text;
        }
        return text;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof DecisionDocuments;
    }

    @Override
    public int hashCode() {
        return 0;
    }

    @Override
    public String toString() {
        return "DecisionDocuments";
    }
}
