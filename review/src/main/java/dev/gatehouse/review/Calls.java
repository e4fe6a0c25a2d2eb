package dev.gatehouse.review;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.facts.AccessRow;
import dev.gatehouse.facts.AccessTable;
import dev.gatehouse.facts.ArgumentFacts;
import dev.gatehouse.facts.ArgumentLimits;
import dev.gatehouse.facts.ClosedSchemaArgumentCheck;
import dev.gatehouse.facts.DecisionInputMapper;
import dev.gatehouse.facts.ToolSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Decision inputs of calls, derived with the gateway's own fact builder ({@link ArgumentFacts}, module facts) from a
 * policy source's access table and tool schemas, so that {@code explain}, {@code matrix} and {@code diff} decide every
 * input, non-ASCII keys and paths included, exactly as the gateway does. The argument limits are the gateway's
 * defaults ({@code gatehouse.arguments}).
 */
public final class Calls {

    /** Reads arguments as the gateway's transport does: a fraction stays a {@code BigDecimal}, as written. */
    private static final ObjectMapper EXACT = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    private static final TypeReference<LinkedHashMap<String, Object>> JSON_OBJECT = new TypeReference<>() {
    };

    private final Map<String, AccessRow> rows;
    private final Map<String, ToolSchema> schemas;
    private final ArgumentLimits limits = new ArgumentLimits();

    private Calls(Map<String, AccessRow> rows, Map<String, ToolSchema> schemas) {
        this.rows = rows;
        this.schemas = schemas;
    }

    /**
     * The calls of {@code source}'s revision.
     *
     * @throws ReviewException when its access table or a tool schema cannot be read
     */
    public static Calls of(PolicySource source) {
        return of(source.accessTable(), source.toolSchemas(), source.label());
    }

    /**
     * The calls of a revision whose access table and tool schemas ({@code data.gatehouse.access_table},
     * {@code data.gatehouse.tool_schemas}) are given as JSON.
     *
     * @param label where the revision came from, for messages
     * @throws ReviewException when the access table or a tool schema cannot be read
     */
    public static Calls of(JsonNode accessTable, JsonNode toolSchemas, String label) {
        List<String> problems = new ArrayList<>();
        Map<String, AccessRow> rows = AccessTable.rows(accessTable, problems);
        if (!problems.isEmpty()) {
            throw new ReviewException(label + ": the access table cannot be read: " + String.join("; ",
                    problems));
        }
        ClosedSchemaArgumentCheck check = new ClosedSchemaArgumentCheck();
        Map<String, ToolSchema> schemas = new LinkedHashMap<>();
        toolSchemas.fields().forEachRemaining(entry -> {
            try {
                schemas.put(entry.getKey(), ToolSchema.compile(entry.getKey(),
                        EXACT.convertValue(entry.getValue(), JSON_OBJECT), check));
            } catch (RuntimeException e) {
                throw new ReviewException(label + ": the input schema of " + entry.getKey()
                        + " does not compile: " + e.getMessage());
            }
        });
        return new Calls(rows, schemas);
    }

    /** The tools of the access table, in its order. */
    public List<String> tools() {
        return List.copyOf(rows.keySet());
    }

    /** The toolkit of {@code tool}'s row, empty when it has none here. */
    public String toolkit(String tool) {
        return Optional.ofNullable(rows.get(tool)).map(AccessRow::toolkit).orElse("");
    }

    /**
     * {@code call} (a decision input with {@code tool}, {@code arguments} and the caller facts) with the facts the
     * gateway derives from the arguments set on a copy: the arguments as sent, {@code omittedArguments},
     * {@code argumentErrors}, {@code argumentKeys} and {@code unicode}.
     */
    public ObjectNode input(ObjectNode call) {
        String tool = call.path("tool").asText("");
        JsonNode given = call.get("arguments");
        Object arguments = given == null || given.isNull() ? Map.of() : EXACT.convertValue(given, Object.class);
        List<String> subtreeIds = new ArrayList<>();
        JsonNode caller = call.path("caller");
        if (caller.path("logicalAgentId").isTextual()) {
            subtreeIds.add(caller.get("logicalAgentId").textValue());
        }
        if (caller.path("sharesThreadAgent").isTextual()) {
            subtreeIds.add(caller.get("sharesThreadAgent").textValue());
        }
        ArgumentFacts facts = ArgumentFacts.of(Optional.ofNullable(schemas.get(tool)),
                Optional.ofNullable(rows.get(tool)), arguments, limits, subtreeIds);
        return DecisionInputMapper.withArgumentFacts(call.deepCopy(), tool, facts);
    }
}
