package io.risklimits.decision;

/** The counted_amount and fx fields of a decision message (schemas/decision.schema.json). */
final class ConversionJson {

    private ConversionJson() {}

    /** Writes the conversion's fields; nothing for an event in the limit currency (null). */
    static void write(JsonObjectText json, Conversion conversion) {
        if (conversion == null) {
            return;
        }
        json.number("counted_amount", conversion.countedAmount())
                .startObject("fx")
                .string("currency", conversion.currency())
                .string("rate", conversion.rate().toPlainString())
                .string("valid_from", InstantText.of(conversion.validFrom()))
                .endObject();
    }
}
