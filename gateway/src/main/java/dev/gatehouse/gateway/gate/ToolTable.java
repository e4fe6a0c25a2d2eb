package dev.gatehouse.gateway.gate;

import dev.gatehouse.facts.AccessRow;
import dev.gatehouse.facts.ArgumentCheck;
import dev.gatehouse.facts.OmittedArgument;
import dev.gatehouse.facts.ToolSchema;
import dev.gatehouse.gateway.policy.api.PolicyContents;
import dev.gatehouse.gateway.tools.ToolHandler;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The tools one revision serves: exactly the rows of its access table, each joined with its compiled input schema
 * and its one handler (docs/domain.md §3; docs/design.md "adding a tool = one row + one schema + one handler").
 * {@link #join} refuses any mismatch, naming the tools, so no revision serves a row that cannot be served or leaves a
 * handler the policy does not know (style card 9).
 */
public final class ToolTable {

    private final Map<String, ServedTool> tools;
    /** The length, in chars, of the longest name served. */
    private final int longestName;

    private ToolTable(Map<String, ServedTool> tools) {
        this.tools = Collections.unmodifiableMap(tools);
        this.longestName = tools.keySet().stream().mapToInt(String::length).max().orElse(0);
    }

    /** A join: the table, or every problem found. */
    public sealed interface Join {
    }

    /** The revision can be served. */
    public record Joined(ToolTable table) implements Join {
    }

    /** It cannot: each problem names a tool. */
    public record Problems(List<String> problems) implements Join {
    }

    /**
     * Joins a revision's rows and schemas with this gateway's handlers by tool name.
     *
     * @param contents the revision's contents
     * @param handlers every handler, by name
     * @param check    compiles the schemas
     * @return the table, sorted by name, or every row without a handler or schema, schema that does not compile and
     *         handler without a row
     */
    public static Join join(PolicyContents contents, Map<String, ToolHandler> handlers, ArgumentCheck check) {
        List<String> problems = new ArrayList<>();
        for (String name : new TreeSet<>(handlers.keySet())) {
            if (!contents.rows().containsKey(name)) {
                problems.add("handler without access-table row: " + name);
            }
        }
        Map<String, ServedTool> joined = new TreeMap<>();
        for (Map.Entry<String, AccessRow> row : contents.rows().entrySet()) {
            String name = row.getKey();
            ToolHandler handler = handlers.get(name);
            if (handler == null) {
                problems.add("access-table row without handler: " + name);
            }
            Optional<ToolSchema> schema = schema(name, contents, check, problems);
            if (handler != null && schema.isPresent()) {
                joined.put(name, new ServedTool(name, row.getValue(), schema.get(), handler));
            }
        }
        return problems.isEmpty() ? new Joined(new ToolTable(joined)) : new Problems(problems);
    }

    private static Optional<ToolSchema> schema(String name, PolicyContents contents, ArgumentCheck check,
            List<String> problems) {
        Map<String, Object> document = contents.schemas().get(name);
        if (document == null) {
            problems.add("access-table row without input schema (schemas/tools/" + name + ".input.json): " + name);
            return Optional.empty();
        }
        try {
            return Optional.of(ToolSchema.compile(name, document, check));
        } catch (RuntimeException e) {
            problems.add("input schema of " + name + " does not compile: " + e.getMessage());
            return Optional.empty();
        }
    }

    /** The tool of that exact name (no case folding or trimming: docs/domain.md §3), if served. */
    public Optional<ServedTool> find(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    /**
     * The name a call is decided and logged under: {@code name} itself, unless it is longer than every name this
     * revision serves, so that no row can match it (names match exactly); then {@code sha256:<hex>} of its UTF-8,
     * which is no row's name either. The policy decides such a call {@code unknown_tool} as it would the name, and
     * neither its input nor the record grows with the name: before, a 900,000-character name (the handshake era has
     * no {@code Mcp-Name} header to cap it) cost 40–60 ms of engine CPU per call.
     */
    public String decidedName(String name) {
        if (name.length() <= longestName) { // a served name is never longer than the longest
            return name;
        }
        return "sha256:" + OmittedArgument.of(name).sha256();
    }

    /** Every served tool, sorted by name. */
    public Collection<ServedTool> all() {
        return tools.values();
    }
}
