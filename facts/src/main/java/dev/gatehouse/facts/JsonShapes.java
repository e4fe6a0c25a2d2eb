package dev.gatehouse.facts;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Member checks of the policy documents Java reads, each problem a sentence saying where. */
public final class JsonShapes {

    private JsonShapes() {
    }

    /** The string {@code member} of {@code node}; a problem at {@code where} when it is not a string. */
    public static Optional<String> text(JsonNode node, String member, String where, List<String> problems) {
        JsonNode value = node.path(member);
        if (!value.isTextual()) {
            problems.add(where + ": " + member + " is not a string");
            return Optional.empty();
        }
        return Optional.of(value.textValue());
    }

    /** The strings of {@code array}; a problem at {@code where} when it is not an array of strings. */
    public static List<String> strings(JsonNode array, String where, List<String> problems) {
        List<String> values = new ArrayList<>();
        if (!array.isArray()) {
            problems.add(where + " is not an array");
            return values;
        }
        for (JsonNode value : array) {
            if (value.isTextual()) {
                values.add(value.textValue());
            } else {
                problems.add(where + " holds a non-string");
            }
        }
        return values;
    }
}
