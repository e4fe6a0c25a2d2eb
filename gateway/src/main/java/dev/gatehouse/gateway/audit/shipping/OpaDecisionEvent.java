package dev.gatehouse.gateway.audit.shipping;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.facts.PolicyJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns one decision-log record (schemas/decision-log-record.json; a reduced line's whole record, read back from
 * the values file) into the event OPA's decision-log plugin sends: {@code labels, decision_id, path, input,
 * result, bundles, timestamp, metrics} as written, {@code masked} listing the masked and redacted pointers and the
 * pointers of redacted member names (everything the log changed in what the event holds), and for a PDP fault
 * {@code error: {code, message}} instead of a result. Gatehouse's readable extras (method, tool, caller, allow,
 * reasons, obligations) are left out: the caller is in {@code input.caller}, the outcome in {@code result}. Input
 * was masked before it was written, so no secret reaches the event. The shipper adds {@code values}: the values the
 * event's stand-ins name that no earlier event of the same POST carried.
 */
final class OpaDecisionEvent {

    private OpaDecisionEvent() {
    }

    /**
     * @param record a decision-log record
     * @param labels OPA's {@code labels} (id, app, version, environment)
     */
    static ObjectNode of(JsonNode record, Map<String, String> labels) {
        ObjectNode event = PolicyJson.MAPPER.createObjectNode();
        ObjectNode labelNode = event.putObject("labels");
        labels.forEach(labelNode::put);
        for (String field : new String[] {"decision_id", "path", "input", "result", "bundles", "timestamp",
                "metrics"}) {
            if (record.has(field)) {
                event.set(field, record.get(field));
            }
        }
        ArrayNode masked = PolicyJson.MAPPER.createArrayNode();
        List<JsonNode> changed = new ArrayList<>();
        record.path("masked").forEach(changed::add);
        record.path("redacted").forEach(changed::add);
        record.path("redactedKeys").forEach(key -> changed.add(key.path("pointer")));
        for (JsonNode pointer : changed) {
            if (!event.at(pointer.asText()).isMissingNode()) { // not the readable copies the event leaves out
                masked.add(pointer);
            }
        }
        if (!masked.isEmpty()) {
            event.set("masked", masked);
        }
        if (record.has("fault")) {
            JsonNode detail = record.path("fault").path("detail");
            event.putObject("error").put("code", record.path("fault").path("code").asText())
                    .put("message", detail.isTextual() ? detail.textValue() : PolicyJson.write(detail));
        }
        return event;
    }

    /**
     * The values-file keys ({@code s<sha256>} for a string, {@code j<sha256>} for a JSON value) of every value a
     * record's stand-ins name: the {@code reduced} whole record, each {@code redacted} pointer, each redacted
     * member name.
     */
    static List<String> valueKeys(JsonNode record) {
        List<String> keys = new ArrayList<>();
        if (record.has("reduced")) {
            keys.add("j" + record.path("reduced").path("sha256").asText());
        }
        for (JsonNode pointer : record.path("redacted")) {
            JsonNode standIn = record.at(pointer.asText());
            keys.add((standIn.path("json").asBoolean(false) ? "j" : "s") + standIn.path("sha256").asText());
        }
        record.path("redactedKeys").forEach(key -> keys.add("s" + key.path("sha256").asText()));
        return keys;
    }
}
