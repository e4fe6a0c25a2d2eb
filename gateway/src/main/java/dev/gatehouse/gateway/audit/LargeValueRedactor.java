package dev.gatehouse.gateway.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.gateway.policy.PolicyJson;
import dev.gatehouse.gateway.policy.api.ArgumentKeys;
import dev.gatehouse.gateway.policy.api.OmittedArgument;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Keeps a record small: every string anywhere under {@code input.arguments} (member values and array items, at
 * any depth) longer than the limit in UTF-8 bytes is replaced by
 * {@code {"length": <UTF-8 byte count>, "sha256": "<64 lower-case hex digits of SHA-256 over those bytes>"}}, and
 * its JSON Pointer is listed in the record's {@code redacted}. Member names, numbers, booleans and short strings
 * stay. The hash lets an operator check a value the caller still has (a page's content) without the log holding
 * it.
 *
 * <p>A redacted input is no longer the evaluated input at those pointers: a policy that reads the value (a long
 * wiki path, say) may decide differently on replay, which is why the pointers are listed.
 */
final class LargeValueRedactor {

    private LargeValueRedactor() {
    }

    /**
     * Redacts in place; run after {@link ArgumentMasker} (masked values are short and stay masked).
     *
     * @param input    decision-input JSON (a copy owned by the caller)
     * @param maxBytes the longest string kept, in UTF-8 bytes
     * @return JSON Pointers of the replaced strings, e.g. {@code /input/arguments/content}, in document order
     */
    static List<String> redact(ObjectNode input, int maxBytes) {
        List<String> redacted = new ArrayList<>();
        JsonNode arguments = input.get("arguments");
        if (arguments == null) {
            return redacted;
        }
        if (arguments.isTextual()) { // a malformed request: arguments is itself a string
            ObjectNode replacement = replacement(arguments.textValue(), maxBytes);
            if (replacement != null) {
                input.set("arguments", replacement);
                redacted.add("/input/arguments");
            }
            return redacted;
        }
        walk(arguments, "/input/arguments", maxBytes, redacted);
        return redacted;
    }

    private static void walk(JsonNode node, String pointer, int maxBytes, List<String> redacted) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> member = it.next();
                String path = pointer + "/" + ArgumentKeys.pointerToken(member.getKey());
                JsonNode value = member.getValue();
                if (value.isTextual()) {
                    ObjectNode replacement = replacement(value.textValue(), maxBytes);
                    if (replacement != null) {
                        member.setValue(replacement);
                        redacted.add(path);
                    }
                } else {
                    walk(value, path, maxBytes, redacted);
                }
            }
        } else if (node.isArray()) {
            ArrayNode array = (ArrayNode) node;
            for (int i = 0; i < array.size(); i++) {
                JsonNode item = array.get(i);
                if (item.isTextual()) {
                    ObjectNode replacement = replacement(item.textValue(), maxBytes);
                    if (replacement != null) {
                        array.set(i, replacement);
                        redacted.add(pointer + "/" + i);
                    }
                } else {
                    walk(item, pointer + "/" + i, maxBytes, redacted);
                }
            }
        }
    }

    /** The replacement for a string over the limit, or {@code null} when it is kept. */
    private static ObjectNode replacement(String value, int maxBytes) {
        return OmittedArgument.ifLonger(value, maxBytes).map(omitted -> {
            ObjectNode replacement = PolicyJson.MAPPER.createObjectNode();
            replacement.put("length", omitted.length());
            replacement.put("sha256", omitted.sha256());
            return replacement;
        }).orElse(null);
    }
}
