package dev.gatehouse.gateway.decisions;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;

/** Reads what the index lists of a decision-log record (schemas/decision-log-record.json). */
public final class DecisionRecords {

    private DecisionRecords() {
    }

    /**
     * The summary of one record.
     *
     * @param replica   the replica whose log holds it
     * @param retryable whether a reason code reports a retryable fault (the serving revision's reason catalogue)
     * @return empty when the line is not a record (no decision id, time or caller)
     */
    public static Optional<DecisionSummary> summary(JsonNode record, String replica, Predicate<String> retryable) {
        UUID id;
        Instant at;
        try {
            id = UUID.fromString(record.path("decision_id").asText(""));
            at = Instant.parse(record.path("timestamp").asText(""));
        } catch (IllegalArgumentException | DateTimeParseException e) {
            return Optional.empty();
        }
        JsonNode caller = record.path("caller");
        if (!caller.isObject() || caller.path("kind").asText("").isEmpty()) {
            return Optional.empty();
        }
        List<String> codes = new ArrayList<>();
        record.path("reasons").forEach(reason -> codes.add(text(reason.path("code")).orElse("")));
        Outcome outcome = outcome(record, codes, retryable);
        JsonNode bundle = record.path("bundles").path("gatehouse");
        return Optional.of(new DecisionSummary(id, at, replica, record.path("method").asText(""),
                text(record.path("tool")), caller.path("kind").asText(), text(caller.path("logicalAgentId"))
                        .orElse(""), text(caller.path("threadId")), outcome, codes, text(bundle.path("revision")),
                text(bundle.path("keyid"))));
    }

    /**
     * Allowed when {@code allow} is true; unavailable when the PDP could not decide ({@code fault}) or every reason
     * is retryable; otherwise denied.
     */
    static Outcome outcome(JsonNode record, List<String> codes, Predicate<String> retryable) {
        if (record.has("fault")) {
            return Outcome.UNAVAILABLE;
        }
        if (record.path("allow").asBoolean(false)) {
            return Outcome.ALLOWED;
        }
        return !codes.isEmpty() && codes.stream().allMatch(retryable) ? Outcome.UNAVAILABLE : Outcome.DENIED;
    }

    /** A string as logged, or {@code sha256:<hex>} for the stand-in of a long one. */
    private static Optional<String> text(JsonNode value) {
        if (value.isTextual()) {
            return Optional.of(value.textValue());
        }
        if (value.isObject() && value.path("sha256").isTextual()) {
            return Optional.of("sha256:" + value.path("sha256").textValue());
        }
        return Optional.empty();
    }
}
