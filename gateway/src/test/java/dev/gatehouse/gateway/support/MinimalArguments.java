package dev.gatehouse.gateway.support;

import dev.gatehouse.gateway.gate.RegisteredTool;
import dev.gatehouse.gateway.mcp.ToolRegistryFactory;
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
        for (var row : ToolRegistryFactory.readTable()) {
            Map<String, Object> schema = ToolRegistryFactory.readSchema(row.getKey()).orElseThrow().inputSchema();
            List<Object> examples = (List<Object>) schema.get("examples");
            byTool.put(row.getKey(), (Map<String, Object>) examples.get(0));
        }
        return byTool;
    }

    /** The example arguments of {@code tool}. */
    public static Map<String, Object> of(RegisteredTool tool) {
        return load().get(tool.name());
    }
}
