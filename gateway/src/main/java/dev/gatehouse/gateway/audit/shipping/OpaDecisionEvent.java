package dev.gatehouse.gateway.audit.shipping;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.gateway.policy.PolicyJson;
import java.io.IOException;
import java.util.Map;

/**
 * Turns one decision-log line (schemas/decision-log-record.json) into the event OPA's decision-log plugin sends:
 * {@code labels, decision_id, path, input, result, bundles, timestamp, metrics} as written, {@code masked} listing
 * both masked and redacted pointers (values the log changed), and for a PDP fault {@code error: {code, message}}
 * instead of a result. Gatehouse's readable extras (method, tool, caller, allow, reasons, obligations) are left out:
 * the caller is in {@code input.caller}, the outcome in {@code result}. Input was already masked before it was
 * written, so no secret reaches the event.
 */
final class OpaDecisionEvent {

    private OpaDecisionEvent() {
    }

    /**
     * @param line   one written line
     * @param labels OPA's {@code labels} (id, app, version, environment)
     * @throws IOException when the line is not a JSON object
     */
    static ObjectNode of(byte[] line, Map<String, String> labels) throws IOException {
        JsonNode record = PolicyJson.MAPPER.readTree(line);
        if (!(record instanceof ObjectNode json)) {
            throw new IOException("a decision-log line is not a JSON object");
        }
        ObjectNode event = PolicyJson.MAPPER.createObjectNode();
        ObjectNode labelNode = event.putObject("labels");
        labels.forEach(labelNode::put);
        for (String field : new String[] {"decision_id", "path", "input", "result", "bundles", "timestamp",
                "metrics"}) {
            if (json.has(field)) {
                event.set(field, json.get(field));
            }
        }
        ArrayNode masked = PolicyJson.MAPPER.createArrayNode();
        json.path("masked").forEach(masked::add);
        json.path("redacted").forEach(masked::add);
        if (!masked.isEmpty()) {
            event.set("masked", masked);
        }
        if (json.has("fault")) {
            event.putObject("error").put("code", json.path("fault").path("code").asText())
                    .put("message", json.path("fault").path("detail").asText());
        }
        return event;
    }
}
