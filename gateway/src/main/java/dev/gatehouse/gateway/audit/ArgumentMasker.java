package dev.gatehouse.gateway.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.gatehouse.gateway.policy.api.ArgumentKeys;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Masks credential-like members anywhere under {@code input.arguments} before a record is written, the way OPA's
 * decision-log mask policy upserts values and lists them in {@code masked}. The decision input carries no secrets by
 * construction (docs/domain.md §6), but arguments are the caller's text: a member named like a credential, token or
 * authorization (any case, anywhere in the name) gets the value {@link #MASK}. Only values change; the member names
 * stay, because the identity rules read names, so a masked input still replays to the same decision.
 */
final class ArgumentMasker {

    /** The value written instead of a masked one. */
    static final TextNode MASK = TextNode.valueOf("**masked**");

    /** Found anywhere in a member name, whatever the case or the characters around it (newlines included). */
    private static final Pattern CREDENTIAL_LIKE = Pattern.compile(
            "(?i)(credential|token|authori[sz]ation|pass[-_ ]?w(or)?d|secret|api[-_ ]?key|cookie|bearer"
                    + "|private[-_ ]?key)");

    private ArgumentMasker() {
    }

    /**
     * Masks in place.
     *
     * @param input decision-input JSON (a copy owned by the caller)
     * @return JSON Pointers of the masked members, e.g. {@code /input/arguments/auth/token}, in document order
     */
    static List<String> mask(ObjectNode input) {
        List<String> masked = new ArrayList<>();
        JsonNode arguments = input.get("arguments");
        if (arguments != null) {
            walk(arguments, "/input/arguments", masked);
        }
        return masked;
    }

    private static void walk(JsonNode node, String pointer, List<String> masked) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> member = it.next();
                String path = pointer + "/" + ArgumentKeys.pointerToken(member.getKey());
                if (CREDENTIAL_LIKE.matcher(member.getKey()).find()) {
                    member.setValue(MASK);
                    masked.add(path);
                } else {
                    walk(member.getValue(), path, masked);
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walk(node.get(i), pointer + "/" + i, masked);
            }
        }
    }
}
