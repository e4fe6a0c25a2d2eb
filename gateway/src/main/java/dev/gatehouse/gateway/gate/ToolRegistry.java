package dev.gatehouse.gateway.gate;

import dev.gatehouse.gateway.tools.ToolHandler;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The served tools: exactly the rows of the access table, each joined with its closed input schema and its one
 * handler (docs/domain.md §3; docs/design.md "adding a tool = one row + one schema + one handler"). Built once at start-up;
 * {@link #join} refuses any mismatch, naming the tools, so the gateway never starts with a row that cannot be
 * served or a handler the policy does not know (style card 9; the MCP SDK's replace-on-duplicate is the
 * counter-example).
 */
public final class ToolRegistry {

    private final Map<String, RegisteredTool> tools;

    private ToolRegistry(Map<String, RegisteredTool> tools) {
        this.tools = Collections.unmodifiableMap(tools);
    }

    /**
     * Joins rows, schemas and handlers by tool name.
     *
     * @param rows     the access table, in file order; a name listed twice is a duplicate
     * @param schemas  the schema of a tool, empty when schemas/tools/&lt;tool&gt;.input.json does not exist
     * @param handlers every handler bean
     * @return the registry, sorted by name
     * @throws RegistryException listing every row without a handler or schema, handler without a row, and
     *                           duplicate name (in the table or among handlers)
     */
    public static ToolRegistry join(List<Map.Entry<String, AccessRow>> rows,
            Function<String, Optional<ToolSchema>> schemas, Collection<? extends ToolHandler> handlers) {
        List<String> problems = new ArrayList<>();
        Map<String, AccessRow> table = new LinkedHashMap<>();
        for (Map.Entry<String, AccessRow> row : rows) {
            if (table.putIfAbsent(row.getKey(), row.getValue()) != null) {
                problems.add("duplicate access-table row: " + row.getKey());
            }
        }
        Map<String, ToolHandler> byName = new LinkedHashMap<>();
        for (ToolHandler handler : handlers) {
            ToolHandler previous = byName.putIfAbsent(handler.name(), handler);
            if (previous != null) {
                problems.add("duplicate handler for " + handler.name() + ": " + previous.getClass().getName()
                        + " and " + handler.getClass().getName());
            }
        }
        for (String name : new TreeSet<>(byName.keySet())) {
            if (!table.containsKey(name)) {
                problems.add("handler without access-table row: " + name);
            }
        }
        Map<String, RegisteredTool> joined = new TreeMap<>();
        for (Map.Entry<String, AccessRow> row : table.entrySet()) {
            String name = row.getKey();
            ToolHandler handler = byName.get(name);
            Optional<ToolSchema> schema = schemas.apply(name);
            if (handler == null) {
                problems.add("access-table row without handler: " + name);
            }
            if (schema.isEmpty()) {
                problems.add("access-table row without schemas/tools/" + name + ".input.json");
            }
            if (handler != null && schema.isPresent()) {
                joined.put(name, new RegisteredTool(name, row.getValue(), schema.get(), handler));
            }
        }
        if (!problems.isEmpty()) {
            throw new RegistryException(problems);
        }
        return new ToolRegistry(joined);
    }

    /** The tool of that exact name (no case folding or trimming: docs/domain.md §3), if served. */
    public Optional<RegisteredTool> find(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    /** Every served tool, sorted by name. */
    public Collection<RegisteredTool> all() {
        return tools.values();
    }
}
