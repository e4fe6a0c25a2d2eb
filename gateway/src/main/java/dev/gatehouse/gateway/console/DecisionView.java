package dev.gatehouse.gateway.console;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.policy.api.PolicyContents;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What one decision's page shows of its record: reasons in the policy's own words, JSON as text. */
public final class DecisionView {

    private DecisionView() {
    }

    /**
     * One reason of the decision.
     *
     * @param code    the reason code
     * @param message the message the rule gave, as logged
     * @param entry   the rule's METADATA (family, title, the sentence), when the catalogue knows the code
     */
    public record Reason(String code, String message, Optional<PolicyContents.ReasonEntry> entry) {
    }

    static List<Reason> reasons(JsonNode record, Map<String, PolicyContents.ReasonEntry> catalogue) {
        List<Reason> reasons = new ArrayList<>();
        record.path("reasons").forEach(reason -> {
            String code = reason.path("code").asText("");
            reasons.add(new Reason(code, reason.path("message").asText(""), Optional.ofNullable(catalogue.get(code))));
        });
        return reasons;
    }

    /**
     * The record's obligations as {@link #pretty} writes them; empty when there are none (absent, or an empty
     * object, as a denial logs them), so the page shows no empty box.
     */
    public static String obligations(JsonNode record) {
        JsonNode obligations = record.path("obligations");
        return obligations.isObject() && obligations.isEmpty() ? "" : pretty(obligations);
    }

    /**
     * The value as indented JSON, for a {@code <pre>} (the template escapes its markup); empty when absent. Invisible
     * format characters (bidirectional overrides, zero-width joiners: Unicode category Cf) are written as JSON
     * {@code \\uXXXX} escapes ({@link Visible#text}), so a logged argument cannot reorder or hide what an auditor
     * reads.
     */
    public static String pretty(JsonNode value) {
        if (value == null || value.isMissingNode()) {
            return "";
        }
        String json;
        try {
            json = PolicyJson.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            json = value.toString();
        }
        return Visible.text(json);
    }
}
