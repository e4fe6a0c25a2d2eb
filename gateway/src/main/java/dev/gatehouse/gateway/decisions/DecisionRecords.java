package dev.gatehouse.gateway.decisions;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.Utf8;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * Reads what the index lists of a decision-log record (schemas/decision-log-record.json) straight from its line, with
 * a streaming parser: only the members the index lists are read, everything else ({@code input}, {@code result},
 * {@code obligations}, ...) is skipped without building a tree. The line is still parsed as the log's readers parse
 * it ({@link PolicyJson#MAPPER}'s parser: a duplicate member name anywhere makes the line no record). The decision
 * log's writer lists a record it writes from the tree it wrote it from ({@link #listing(JsonNode, UUID, Instant)}),
 * with the same result, so the index feed need not read the line again.
 */
public final class DecisionRecords {

    /**
     * What the index lists of one record.
     *
     * @param summary  the summary
     * @param standIns whether the record has {@code reduced}, {@code redacted} or {@code redactedKeys}: stand-ins
     *                 for values kept in the values file beside its log file
     */
    public record Listed(DecisionSummary summary, boolean standIns) {
    }

    /**
     * What the index lists of one record before its outcome is decided: the outcome needs the serving revision's
     * reason catalogue, which the feed knows when it indexes the record ({@link #listed}).
     *
     * @param reasons  the reason codes, the quota step's code last when the policy's reasons do not name it
     * @param allow    the record's {@code allow}
     * @param fault    whether the record has {@code fault} (the PDP could not decide)
     * @param stopped  the outcome of the quota step when it stopped the call ({@code quota.outcome})
     * @param standIns whether the record has {@code reduced}, {@code redacted} or {@code redactedKeys}
     */
    public record Listing(UUID decisionId, Instant decidedAt, String method, Optional<String> tool, String callerKind,
            String agentId, Optional<String> threadId, List<String> reasons, boolean allow, boolean fault,
            Optional<Outcome> stopped, Optional<String> revision, Optional<String> keyId, boolean standIns) {

        public Listing {
            reasons = List.copyOf(reasons);
        }

        /** The summary on {@code replica}, its outcome decided with {@code retryable} ({@link #outcome}). */
        public Listed listed(String replica, Predicate<String> retryable) {
            Outcome outcome = outcome(fault, stopped, allow, reasons, retryable);
            return new Listed(new DecisionSummary(decisionId, decidedAt, replica, method, tool, callerKind, agentId,
                    threadId, outcome, reasons, revision, keyId), standIns);
        }
    }

    private DecisionRecords() {
    }

    /**
     * The summary of one record, each member read as a tree's {@code asText}, {@code asBoolean} and
     * {@code forEach} read it (a member that is not of the schema's type reads as absent or empty).
     *
     * @param line      one line of a decision-log file, UTF-8, with or without its newline
     * @param replica   the replica whose log holds it
     * @param retryable whether a reason code reports a retryable fault (the serving revision's reason catalogue)
     * @return empty when the line is not a record (not one JSON object, or no decision id, time or caller)
     */
    public static Optional<Listed> summary(byte[] line, String replica, Predicate<String> retryable) {
        return listing(line).map(listing -> listing.listed(replica, retryable));
    }

    /** What {@link #summary} lists of {@code line}, before the outcome; empty when the line is not a record. */
    public static Optional<Listing> listing(byte[] line) {
        try (JsonParser parser = PolicyJson.MAPPER.createParser(line)) {
            return parser.nextToken() == JsonToken.START_OBJECT ? listing(parser) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static Optional<Listing> listing(JsonParser parser) throws IOException {
        String id = "";
        String timestamp = "";
        String method = "";
        Optional<String> tool = Optional.empty();
        Caller caller = null;
        List<String> codes = new ArrayList<>();
        boolean allow = false;
        boolean fault = false;
        Optional<String> revision = Optional.empty();
        Optional<String> keyId = Optional.empty();
        boolean standIns = false;
        Quota quota = Quota.NONE;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            parser.nextToken();
            switch (name) {
                case "decision_id" -> id = scalar(parser);
                case "timestamp" -> timestamp = scalar(parser);
                case "method" -> method = scalar(parser);
                case "tool" -> tool = text(parser);
                case "caller" -> caller = caller(parser);
                case "reasons" -> codes = codes(parser);
                case "allow" -> allow = parser.getValueAsBoolean(false);
                case "fault" -> fault = true;
                case "bundles" -> {
                    Bundle bundle = bundle(parser);
                    revision = bundle.revision;
                    keyId = bundle.keyId;
                }
                case "quota" -> quota = quota(parser);
                case "reduced", "redacted", "redactedKeys" -> standIns = true;
                default -> {
                    // not listed
                }
            }
            parser.skipChildren();
        }
        UUID decisionId;
        Instant at;
        try {
            decisionId = UUID.fromString(id);
            at = Instant.parse(timestamp);
        } catch (IllegalArgumentException | DateTimeParseException e) {
            return Optional.empty();
        }
        if (caller == null || caller.kind.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Listing(decisionId, at, method, tool, caller.kind, caller.agentId.orElse(""),
                caller.threadId, withQuotaCode(codes, quota.code), allow, fault, quota.outcome.flatMap(Outcome::ofWire), revision, keyId,
                standIns));
    }

    /**
     * What {@link #listing(byte[])} lists of the line written from {@code record} (its compact JSON, UTF-8), read from
     * the tree itself, without writing or parsing the line: the members are read as {@link #summary} reads them from
     * the line. A tree holds what its line holds, except that a string with an unpaired surrogate is written as
     * {@code ?} and a number or a boolean where the schema has a string is read as the line spells it; so when a
     * listed value is one of those, or the tree is no record, the answer is empty and the caller reads the line
     * instead.
     *
     * @param record     a record as DecisionRecordJson writes it; its {@code decision_id} and {@code timestamp}
     *                   strings are {@code decisionId}'s and {@code decidedAt}'s {@code toString}, which read back as
     *                   the same values (so neither is parsed again)
     * @param decisionId the record's decision id
     * @param decidedAt  the record's time
     */
    public static Optional<Listing> listing(JsonNode record, UUID decisionId, Instant decidedAt) {
        JsonNode caller = record.path("caller");
        if (!record.path("decision_id").isTextual() || !record.path("timestamp").isTextual() || !caller.isObject()) {
            return Optional.empty();
        }
        Optional<String> method = scalar(record.get("method"));
        Optional<String> kind = scalar(caller.get("kind"));
        Optional<Optional<String>> tool = text(record.get("tool"));
        Optional<Optional<String>> agentId = text(caller.get("logicalAgentId"));
        Optional<Optional<String>> threadId = text(caller.get("threadId"));
        JsonNode gatehouse = record.path("bundles").path("gatehouse");
        Optional<Optional<String>> revision = gatehouse.isObject() ? text(gatehouse.get("revision"))
                : Optional.of(Optional.empty());
        Optional<Optional<String>> keyId = gatehouse.isObject() ? text(gatehouse.get("keyid"))
                : Optional.of(Optional.empty());
        JsonNode quota = record.path("quota");
        Optional<Optional<String>> quotaOutcome = quota.isObject() ? text(quota.get("outcome"))
                : Optional.of(Optional.empty());
        Optional<Optional<String>> quotaCode = quota.isObject() ? text(quota.get("code"))
                : Optional.of(Optional.empty());
        Optional<List<String>> codes = codes(record.get("reasons"));
        JsonNode allow = record.get("allow");
        if (method.isEmpty() || kind.isEmpty() || kind.get().isEmpty() || tool.isEmpty() || agentId.isEmpty()
                || threadId.isEmpty() || revision.isEmpty() || keyId.isEmpty() || quotaOutcome.isEmpty()
                || quotaCode.isEmpty() || codes.isEmpty() || (allow != null && !allow.isBoolean())) {
            return Optional.empty();
        }
        return Optional.of(new Listing(decisionId, decidedAt, method.get(), tool.get(), kind.get(),
                agentId.get().orElse(""), threadId.get(), withQuotaCode(codes.get(), quotaCode.get()), allow != null && allow.booleanValue(),
                record.has("fault"), quotaOutcome.get().flatMap(Outcome::ofWire), revision.get(), keyId.get(),
                record.has("reduced") || record.has("redacted") || record.has("redactedKeys")));
    }

    /** As {@link #scalar(JsonParser)} reads it; empty when only the line can tell (a number or a boolean). */
    private static Optional<String> scalar(JsonNode node) {
        if (node == null || node.isNull() || node.isContainerNode()) {
            return Optional.of("");
        }
        return node.isTextual() ? written(node.textValue()) : Optional.empty();
    }

    /** As {@link #text(JsonParser)} reads it; empty when only the line can tell. */
    private static Optional<Optional<String>> text(JsonNode node) {
        if (node != null && node.isTextual()) {
            return written(node.textValue()).map(Optional::of);
        }
        if (node == null || !node.isObject()) {
            return Optional.of(Optional.empty());
        }
        JsonNode sha256 = node.get("sha256");
        return sha256 != null && sha256.isTextual() ? written("sha256:" + sha256.textValue()).map(Optional::of)
                : Optional.of(Optional.empty());
    }

    /** As {@link #codes(JsonParser)} reads them (a fresh list); empty when only the line can tell. */
    private static Optional<List<String>> codes(JsonNode reasons) {
        List<String> codes = new ArrayList<>();
        if (reasons == null || !reasons.isContainerNode()) {
            return Optional.of(codes);
        }
        for (JsonNode reason : reasons) {
            Optional<Optional<String>> code = reason.isObject() ? text(reason.get("code"))
                    : Optional.of(Optional.empty());
            if (code.isEmpty()) {
                return Optional.empty();
            }
            codes.add(code.get().orElse(""));
        }
        return Optional.of(codes);
    }

    /**
     * {@code codes} with the quota step's reason code last when they do not name it: a refusal of the quota step is
     * searched and counted by its code like the policy's reasons.
     */
    private static List<String> withQuotaCode(List<String> codes, Optional<String> quotaCode) {
        String code = quotaCode.orElse("");
        if (!code.isEmpty() && !codes.contains(code)) {
            codes.add(code);
        }
        return codes;
    }

    /** {@code text} when its line reads it back the same: empty when it has an unpaired surrogate. */
    private static Optional<String> written(String text) {
        return Utf8.wellFormed(text) ? Optional.of(text) : Optional.empty();
    }

    /**
     * Unavailable when the PDP could not decide ({@code fault}); the quota step's outcome when it stopped the call
     * ({@code stopped}: {@code quota.outcome} {@code rate_limited} or {@code unavailable}, whatever the policy
     * decided; its {@code admitted} names no outcome); allowed when {@code allow} is true; unavailable when every
     * reason is retryable; otherwise denied.
     */
    static Outcome outcome(boolean fault, Optional<Outcome> stopped, boolean allow, List<String> codes,
            Predicate<String> retryable) {
        if (fault) {
            return Outcome.UNAVAILABLE;
        }
        if (stopped.isPresent()) {
            return stopped.get();
        }
        if (allow) {
            return Outcome.ALLOWED;
        }
        return !codes.isEmpty() && codes.stream().allMatch(retryable) ? Outcome.UNAVAILABLE : Outcome.DENIED;
    }

    private record Caller(String kind, Optional<String> agentId, Optional<String> threadId) {
    }

    private record Bundle(Optional<String> revision, Optional<String> keyId) {
    }

    /** What the PEP's quota step did ({@code quota.outcome}) and its reason code ({@code quota.code}). */
    private record Quota(Optional<String> outcome, Optional<String> code) {
        static final Quota NONE = new Quota(Optional.empty(), Optional.empty());
    }

    /** The quota object at the parser; none when the member is no object. */
    private static Quota quota(JsonParser parser) throws IOException {
        if (parser.currentToken() != JsonToken.START_OBJECT) {
            return Quota.NONE;
        }
        Optional<String> outcome = Optional.empty();
        Optional<String> code = Optional.empty();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            parser.nextToken();
            if (name.equals("outcome")) {
                outcome = text(parser);
            } else if (name.equals("code")) {
                code = text(parser);
            }
            parser.skipChildren();
        }
        return new Quota(outcome, code);
    }

    /** The caller object at the parser; null when the member is no object. */
    private static Caller caller(JsonParser parser) throws IOException {
        if (parser.currentToken() != JsonToken.START_OBJECT) {
            return null;
        }
        String kind = "";
        Optional<String> agentId = Optional.empty();
        Optional<String> threadId = Optional.empty();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            parser.nextToken();
            switch (name) {
                case "kind" -> kind = scalar(parser);
                case "logicalAgentId" -> agentId = text(parser);
                case "threadId" -> threadId = text(parser);
                default -> {
                    // not listed
                }
            }
            parser.skipChildren();
        }
        return new Caller(kind, agentId, threadId);
    }

    /** {@code bundles.gatehouse.revision} and {@code .keyid}. */
    private static Bundle bundle(JsonParser parser) throws IOException {
        Bundle bundle = new Bundle(Optional.empty(), Optional.empty());
        if (parser.currentToken() != JsonToken.START_OBJECT) {
            return bundle;
        }
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            if (parser.nextToken() == JsonToken.START_OBJECT && name.equals("gatehouse")) {
                Optional<String> revision = Optional.empty();
                Optional<String> keyId = Optional.empty();
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String member = parser.currentName();
                    parser.nextToken();
                    if (member.equals("revision")) {
                        revision = text(parser);
                    } else if (member.equals("keyid")) {
                        keyId = text(parser);
                    }
                    parser.skipChildren();
                }
                bundle = new Bundle(revision, keyId);
            } else {
                parser.skipChildren();
            }
        }
        return bundle;
    }

    /** The reason codes: each element's (or member's) {@code code}, "" for one without a readable code. */
    private static List<String> codes(JsonParser parser) throws IOException {
        List<String> codes = new ArrayList<>();
        JsonToken start = parser.currentToken();
        if (start != JsonToken.START_ARRAY && start != JsonToken.START_OBJECT) {
            return codes;
        }
        JsonToken end = start == JsonToken.START_ARRAY ? JsonToken.END_ARRAY : JsonToken.END_OBJECT;
        for (JsonToken token = parser.nextToken(); token != end; token = parser.nextToken()) {
            if (token == JsonToken.FIELD_NAME) {
                token = parser.nextToken();
            }
            Optional<String> code = Optional.empty();
            if (token == JsonToken.START_OBJECT) {
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String name = parser.currentName();
                    parser.nextToken();
                    if (name.equals("code")) {
                        code = text(parser);
                    }
                    parser.skipChildren();
                }
            } else {
                parser.skipChildren();
            }
            codes.add(code.orElse(""));
        }
        return codes;
    }

    /** A scalar as text (a number's or boolean's digits or word), "" for null, an object or an array. */
    private static String scalar(JsonParser parser) throws IOException {
        return parser.getValueAsString("");
    }

    /** A string as logged, or {@code sha256:<hex>} for the stand-in of a long one. */
    private static Optional<String> text(JsonParser parser) throws IOException {
        if (parser.currentToken() == JsonToken.VALUE_STRING) {
            return Optional.of(parser.getText());
        }
        if (parser.currentToken() != JsonToken.START_OBJECT) {
            return Optional.empty();
        }
        Optional<String> sha256 = Optional.empty();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            if (parser.nextToken() == JsonToken.VALUE_STRING && name.equals("sha256")) {
                sha256 = Optional.of("sha256:" + parser.getText());
            }
            parser.skipChildren();
        }
        return sha256;
    }
}
