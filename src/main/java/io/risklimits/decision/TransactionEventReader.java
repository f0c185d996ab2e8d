package io.risklimits.decision;

import io.risklimits.shared.LogSafe;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads a transactions-topic record and applies every rule of the contract. Field error messages
 * never quote the input, and the parser's message for a value that is not JSON (which may quote a
 * token of it) goes through {@link LogSafe}, so a hostile value cannot reach logs or downstream
 * topics through them as more than one bounded, escaped line.
 */
public final class TransactionEventReader {

    static final long MAX_AMOUNT = 1_000_000_000_000_000L;
    private static final Pattern CHANNEL = Pattern.compile("[A-Z0-9_]{1,32}");
    private static final Pattern CURRENCY = Pattern.compile("[A-Z]{3}");
    static final int MAX_TIMESTAMP_LENGTH = 64;
    // PostgreSQL has no year 0 (1 BC comes before 1 AD), and the request log must store occurred_at as
    // read: an instant before the first of the year 1, in UTC, is INVALID rather than refused by the
    // database. The pattern's four-digit years, and the clock skew, bound it from above.
    static final Instant EARLIEST_TIMESTAMP = Instant.parse("0001-01-01T00:00:00Z");

    // Jackson's read limits, set on purpose rather than left at its defaults (20 MB strings, nesting 500 in 3.x):
    // - nesting 64: an event is one flat object; 64 leaves room for producers' extra objects, which are
    //   ignored, while bounding the tree builder's recursion
    // - numbers of 1000 characters: a many-digit amount is still read and answered INVALID, as the contract
    //   asks; beyond that BigInteger parsing grows faster than linearly, and the record is a dead letter
    // - strings of 2 MiB and documents of 4 MiB characters: above the largest record the topics take (the
    //   broker's 1 MiB default; 2 MiB max.request.size for dead-letter copies), so every record that can
    //   arrive is judged by the contract's rules, and a raised topic limit cannot make the reader build
    //   an unbounded tree
    // A record beyond a limit is unreadable (a dead letter), never guessed at.
    private static final JsonMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(64)
                            .maxNumberLength(1000)
                            .maxStringLength(2 * 1024 * 1024)
                            .maxDocumentLength(4L * 1024 * 1024)
                            .build())
                    .build())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /** risk.holds.max-ttl's default: how far after occurred_at a hold_expires_at may be. */
    public static final Duration DEFAULT_MAX_HOLD_TTL = Duration.ofDays(30);

    private final String currency;
    private final Duration maxClockSkew;
    private final Duration maxHoldTtl;
    private final Clock clock;

    public TransactionEventReader(String currency, Duration maxClockSkew, Clock clock) {
        this(currency, maxClockSkew, DEFAULT_MAX_HOLD_TTL, clock);
    }

    /** @param maxHoldTtl how far after occurred_at a hold_expires_at may be (risk.holds.max-ttl) */
    public TransactionEventReader(String currency, Duration maxClockSkew, Duration maxHoldTtl, Clock clock) {
        this.currency = currency;
        this.maxClockSkew = maxClockSkew;
        this.maxHoldTtl = maxHoldTtl;
        this.clock = clock;
    }

    public ReadResult read(byte[] value) {
        if (value == null) {
            return new ReadResult.Unreadable("record has no value");
        }
        JsonNode root;
        try {
            root = isAsciiWithoutNul(value) ? MAPPER.readTree(value) : MAPPER.readTree(strictUtf8(value));
        } catch (CharacterCodingException e) {
            return new ReadResult.Unreadable("value is not UTF-8");
        } catch (JacksonException e) {
            // Jackson's message can quote a token of the input (control characters included): made safe here,
            // so the problem is one bounded line wherever it goes
            return new ReadResult.Unreadable("value is not JSON: " + LogSafe.text(e.getOriginalMessage()));
        }
        if (root == null || !root.isObject()) {
            return new ReadResult.Unreadable("value is not a JSON object");
        }
        UUID dedupeId = JsonFields.uuidOrNull(root.get("dedupe_id"));
        if (dedupeId == null) {
            return new ReadResult.Unreadable("dedupe_id is missing or not a UUID string");
        }
        return readFields(dedupeId, root);
    }

    private ReadResult readFields(UUID dedupeId, JsonNode root) {
        List<FieldError> errors = new ArrayList<>();
        UUID entityId = entityId(root.get("entity_id"), errors);
        String channel = channel(root.get("channel"), errors);
        Direction direction = direction(root.get("direction"), errors);
        Long amount = amount(root.get("amount"), errors);
        String eventCurrency = currency(root.get("currency"), errors);
        Instant occurredAt = occurredAt(root.get("occurred_at"), errors);
        EventType type = type(root.get("type"), errors);
        UUID reverses = FollowUpFields.reverses(root.get("reverses"), type, dedupeId, errors);
        UUID original =
                FollowUpFields.original(root.get("original"), type, dedupeId, root.get("reverses"), reverses, errors);
        UUID accountId = accountId(root.get("account_id"), errors);
        Instant holdExpiresAt =
                FollowUpFields.holdExpiresAt(root.get("hold_expires_at"), type, occurredAt, maxHoldTtl, errors);
        Boolean isFinal = FollowUpFields.isFinal(root.get("final"), type, errors);
        EventFields fields = new EventFields(
                entityId,
                channel,
                direction,
                amount,
                eventCurrency,
                occurredAt,
                type,
                reverses,
                accountId,
                original,
                holdExpiresAt,
                isFinal);
        if (!errors.isEmpty()) {
            return new ReadResult.Invalid(dedupeId, fields, errors);
        }
        return new ReadResult.Valid(new TransactionEvent(
                dedupeId,
                new BusinessKey(entityId, channel, direction),
                amount,
                eventCurrency,
                occurredAt,
                type,
                reverses,
                accountId,
                original,
                holdExpiresAt,
                isFinal == null || isFinal));
    }

    /**
     * Absent (or null) is an authorization, so an event that names no type asks for limit. EXPIRY is the
     * type of the service's own decisions, never of an event.
     */
    private static EventType type(JsonNode node, List<FieldError> errors) {
        if (node == null || node.isNull()) {
            return EventType.AUTHORIZATION;
        }
        if (node.isString()) {
            for (EventType type : EventType.values()) {
                if (type != EventType.EXPIRY && type.name().equals(node.stringValue())) {
                    return type;
                }
            }
        }
        errors.add(new FieldError("type", "must be AUTHORIZATION, REVERSAL, CAPTURE or INCREMENT"));
        return null;
    }

    /** Optional: absent (or null) names no account, and the event counts at its key and entity alone. */
    private static UUID accountId(JsonNode node, List<FieldError> errors) {
        if (node == null || node.isNull()) {
            return null;
        }
        UUID accountId = JsonFields.uuidOrNull(node);
        if (accountId == null) {
            errors.add(new FieldError("account_id", "must be a UUID string"));
        }
        return accountId;
    }

    private static UUID entityId(JsonNode node, List<FieldError> errors) {
        if (node == null || node.isNull()) {
            errors.add(new FieldError("entity_id", "is required"));
            return null;
        }
        UUID entityId = JsonFields.uuidOrNull(node);
        if (entityId == null) {
            errors.add(new FieldError("entity_id", "must be a UUID string"));
        }
        return entityId;
    }

    private static String channel(JsonNode node, List<FieldError> errors) {
        return JsonFields.matching(node, "channel", CHANNEL, "must be 1 to 32 of A-Z, 0-9 and _", errors);
    }

    private static Direction direction(JsonNode node, List<FieldError> errors) {
        String text = JsonFields.requiredString(node, "direction", errors);
        if (text == null) {
            return null;
        }
        if (text.equals("IN") || text.equals("OUT")) {
            return Direction.valueOf(text);
        }
        errors.add(new FieldError("direction", "must be IN or OUT"));
        return null;
    }

    private static Long amount(JsonNode node, List<FieldError> errors) {
        if (node == null || node.isNull()) {
            errors.add(new FieldError("amount", "is required"));
            return null;
        }
        if (!node.isNumber()) {
            errors.add(new FieldError(
                    "amount",
                    "must be a JSON integer, not " + node.getNodeType().name().toLowerCase()));
            return null;
        }
        if (!node.isIntegralNumber()) {
            errors.add(new FieldError("amount", "must be an integer in minor units, without fraction or exponent"));
            return null;
        }
        if (!node.canConvertToLong() || node.longValue() < 1 || node.longValue() > MAX_AMOUNT) {
            errors.add(new FieldError("amount", "must be between 1 and " + MAX_AMOUNT));
            return null;
        }
        return node.longValue();
    }

    private String currency(JsonNode node, List<FieldError> errors) {
        String text = JsonFields.matching(node, "currency", CURRENCY, "must be an ISO 4217 code", errors);
        // the limit currency, or any ISO 4217 currency with a minor unit (its rate is the decision's matter)
        if (text != null && !text.equals(currency) && Currencies.minorUnitDigits(text) < 0) {
            errors.add(new FieldError("currency", "must be an ISO 4217 currency with a minor unit"));
            return null;
        }
        return text;
    }

    private Instant occurredAt(JsonNode node, List<FieldError> errors) {
        String text = JsonFields.requiredString(node, "occurred_at", errors);
        if (text == null) {
            return null;
        }
        Instant occurredAt = text.length() > MAX_TIMESTAMP_LENGTH ? null : Rfc3339.instant(text);
        if (occurredAt == null) {
            errors.add(new FieldError("occurred_at", "must be an RFC 3339 timestamp, e.g. 2026-11-22T10:15:30Z"));
            return null;
        }
        if (occurredAt.isBefore(EARLIEST_TIMESTAMP)) {
            errors.add(new FieldError("occurred_at", "must not be before " + EARLIEST_TIMESTAMP));
            return null;
        }
        if (occurredAt.isAfter(clock.instant().plus(maxClockSkew))) {
            errors.add(new FieldError("occurred_at", "is more than " + maxClockSkew + " in the future"));
            return null;
        }
        return occurredAt;
    }

    /**
     * Whether every byte is an ASCII character other than NUL: such bytes are UTF-8 as they are, and the
     * parser, given them as bytes, reads them as UTF-8 (it takes another encoding only on a byte order mark
     * or NUL bytes, neither of which this admits). Anything else is decoded strictly first.
     */
    private static boolean isAsciiWithoutNul(byte[] value) {
        for (byte b : value) {
            if (b <= 0) {
                return false;
            }
        }
        return true;
    }

    private static String strictUtf8(byte[] value) throws CharacterCodingException {
        return StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(value))
                .toString();
    }
}
