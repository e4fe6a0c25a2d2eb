package dev.gatehouse.gateway.support;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * For each tool of the access table, arguments that satisfy its closed input schema: the first of the schema's
 * {@code examples} (schemas/tools/&lt;tool&gt;.input.json). Nothing in the tests lists tools by hand.
 */
public final class MinimalArguments {

    private MinimalArguments() {
    }

    /** Tool name → its example arguments, for every row of the access table, sorted by name. */
    @SuppressWarnings("unchecked")
    public static Map<String, Map<String, Object>> load() {
        Map<String, Map<String, Object>> byTool = new TreeMap<>();
        PolicySources.schemas().forEach((tool, schema) ->
                byTool.put(tool, (Map<String, Object>) ((List<Object>) schema.get("examples")).get(0)));
        return byTool;
    }
}
