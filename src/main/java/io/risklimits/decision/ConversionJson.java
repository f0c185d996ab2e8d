package io.risklimits.decision;

import tools.jackson.core.JsonGenerator;

/** The counted_amount and fx fields of a decision message (schemas/decision.schema.json). */
final class ConversionJson {

    private ConversionJson() {}

    /** Writes the conversion's fields; nothing for an event in the limit currency (null). */
    static void write(JsonGenerator json, Conversion conversion) {
        if (conversion == null) {
            return;
        }
        json.writeNumberProperty("counted_amount", conversion.countedAmount());
        json.writeObjectPropertyStart("fx");
        json.writeStringProperty("currency", conversion.currency());
        json.writeStringProperty("rate", conversion.rate().toPlainString());
        json.writeStringProperty("valid_from", InstantText.of(conversion.validFrom()));
        json.writeEndObject();
    }
}
