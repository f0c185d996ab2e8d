package io.risklimits.decision.store;

import io.risklimits.decision.hold.CountedPart;
import io.risklimits.decision.hold.PartKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;

/**
 * The parts column of risk_authorization_ledger: a json array of the counted parts in the order they
 * were counted, each {"kind": ..., "hour": UTC hour, "amount": n, "released": n}.
 */
final class LedgerParts {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private LedgerParts() {}

    static String json(List<CountedPart> parts) {
        ArrayNode array = MAPPER.createArrayNode();
        for (CountedPart part : parts) {
            array.addObject()
                    .put("kind", part.kind().name())
                    .put("hour", part.hour().toString())
                    .put("amount", part.amount())
                    .put("released", part.released());
        }
        return array.toString();
    }

    static List<CountedPart> parts(String json) {
        List<CountedPart> parts = new ArrayList<>();
        for (JsonNode part : MAPPER.readTree(json)) {
            parts.add(new CountedPart(
                    PartKind.valueOf(part.required("kind").stringValue()),
                    Instant.parse(part.required("hour").stringValue()),
                    part.required("amount").longValue(),
                    part.required("released").longValue()));
        }
        return parts;
    }
}
