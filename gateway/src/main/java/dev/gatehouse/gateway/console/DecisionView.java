package dev.gatehouse.gateway.console;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.gate.GateReasons;
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

    /**
     * The PEP's own reason code, which no policy's catalogue holds: the quota step's refusal (docs/domain.md §10),
     * explained here in the words of the domain rule.
     */
    static final PolicyContents.ReasonEntry QUOTA = new PolicyContents.ReasonEntry("quotas (gateway)",
            "Quota enforcement", "The gateway refused the call before it ran, whatever the policy decided: its"
            + " bucket had no token within the wait the gateway allows, or its caller already held every place of"
            + " its fair share. The caller may retry after the time it was given.", true, "PEP quota step");

    /**
     * The record's reasons, then the quota step's refusal ({@code quota.code}) when the policy's reasons do not
     * already name it, each with its catalogue entry.
     */
    static List<Reason> reasons(JsonNode record, Map<String, PolicyContents.ReasonEntry> catalogue) {
        List<Reason> reasons = new ArrayList<>();
        record.path("reasons").forEach(reason -> {
            String code = reason.path("code").asText("");
            reasons.add(new Reason(code, reason.path("message").asText(""), entry(code, catalogue)));
        });
        JsonNode quota = record.path("quota");
        String code = quota.path("code").asText("");
        if (!code.isEmpty() && reasons.stream().noneMatch(reason -> reason.code().equals(code))) {
            reasons.add(new Reason(code, quotaMessage(quota), entry(code, catalogue)));
        }
        return reasons;
    }

    private static Optional<PolicyContents.ReasonEntry> entry(String code, Map<String, PolicyContents.ReasonEntry>
            catalogue) {
        return Optional.ofNullable(catalogue.get(code)).or(() -> code.equals(GateReasons.RATE_LIMITED)
                ? Optional.of(QUOTA) : Optional.empty());
    }

    /** What the quota step logged of its refusal, as a sentence. */
    private static String quotaMessage(JsonNode quota) {
        String retry = "; retry after " + quota.path("retryAfterMs").asLong() + " ms";
        return quota.path("limit").asText().equals("share")
                ? "the caller held every place of its fair share of the gateway" + retry
                : "no token in bucket " + quota.path("bucket").asText() + " (class " + quota.path("class").asText()
                        + ", " + quota.path("budget").asText() + " budget)" + retry;
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
