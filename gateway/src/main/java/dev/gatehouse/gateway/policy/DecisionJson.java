package dev.gatehouse.gateway.policy;

import dev.gatehouse.facts.PolicyJson;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.Obligations;
import dev.gatehouse.gateway.policy.api.VisibleTools;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes a parsed answer back in the policy's own JSON shape (schemas/decision.json; visible_tools an array of
 * names). Because {@link DecisionParser} accepts only that exact shape, the JSON written here equals the JSON the
 * engine returned (member order aside); the decision log relies on this to record a result {@code opa eval} can
 * reproduce.
 */
public final class DecisionJson {

    private DecisionJson() {
    }

    /** {@code {"allow": …, "reasons": [{code, message}…], "obligations": {modes?, wikiPaths?, wikiRoot?, quota?}}}. */
    public static ObjectNode decision(Decision decision) {
        ObjectNode json = PolicyJson.MAPPER.createObjectNode();
        json.put("allow", decision.allow());
        ArrayNode reasons = json.putArray("reasons");
        decision.reasons().forEach(reason -> reasons.addObject()
                .put("code", reason.code())
                .put("message", reason.message()));
        json.set("obligations", obligations(decision.obligations()));
        return json;
    }

    /**
     * {@code {"modes": {field: mode}?, "wikiPaths": {field: path}?, "wikiRoot": root?, "quota": {bucket, class,
     * ratePerMinute, burst}?}}, each only when not empty;
     * {@code {}} for none.
     */
    public static ObjectNode obligations(Obligations obligations) {
        ObjectNode json = PolicyJson.MAPPER.createObjectNode();
        putFields(json, "modes", obligations.modes());
        putFields(json, "wikiPaths", obligations.wikiPaths());
        obligations.wikiRoot().ifPresent(root -> json.put("wikiRoot", root));
        // Written as ints (they are at most Quota.MAX_TOKENS) so the tree equals the same JSON read back.
        obligations.quota().ifPresent(quota -> json.putObject("quota").put("bucket", quota.bucket())
                .put("class", quota.bucketClass()).put("ratePerMinute", Math.toIntExact(quota.ratePerMinute()))
                .put("burst", Math.toIntExact(quota.burst())));
        return json;
    }

    private static void putFields(ObjectNode json, String member, Map<String, String> fields) {
        if (!fields.isEmpty()) {
            ObjectNode object = json.putObject(member);
            new TreeMap<>(fields).forEach(object::put);
        }
    }

    /** The names as a JSON array, sorted (the policy returns a set). */
    public static ArrayNode visibleTools(VisibleTools tools) {
        ArrayNode json = PolicyJson.MAPPER.createArrayNode();
        tools.names().forEach(json::add);
        return json;
    }
}
