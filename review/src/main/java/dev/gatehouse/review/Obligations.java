package dev.gatehouse.review;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Obligations shown generically: every leaf as {@code a.b=value}, whatever the policy returns. */
public final class Obligations {

    private Obligations() {
    }

    public static List<String> leaves(JsonNode obligations) {
        List<String> out = new ArrayList<>();
        walk("", obligations, out);
        return out;
    }

    public static String flat(JsonNode obligations) {
        return String.join(" ", leaves(obligations));
    }

    private static void walk(String prefix, JsonNode node, List<String> out) {
        if (node == null || node.isMissingNode()) {
            return;
        }
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                walk(prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey(), e.getValue(), out);
            }
        } else {
            out.add(prefix + "=" + (node.isTextual() ? node.asText() : node.toString()));
        }
    }
}
