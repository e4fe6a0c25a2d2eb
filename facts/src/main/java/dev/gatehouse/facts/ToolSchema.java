package dev.gatehouse.facts;

import java.util.Map;
import java.util.Objects;

/**
 * A tool's closed input schema as the served revision carries it (schemas/tools/&lt;tool&gt;.input.json), compiled
 * once per revision, with the title and description it publishes in tools/list.
 *
 * @param title       the schema's {@code title} (the tool name when it has none)
 * @param description the schema's {@code description} (empty when it has none)
 * @param inputSchema the whole schema document as JSON values ({@code Map}/{@code List}/scalars)
 * @param validator   the compiled schema
 * @param envelope    the largest arguments the PEP validates and sends for it
 */
public record ToolSchema(String title, String description, Map<String, Object> inputSchema,
        ArgumentCheck.Validator validator, ArgumentEnvelope envelope) {

    public ToolSchema {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(validator, "validator");
        Objects.requireNonNull(envelope, "envelope");
        inputSchema = Map.copyOf(inputSchema);
    }

    /**
     * Compiles a schema document.
     *
     * @throws IllegalArgumentException when it does not compile
     */
    public static ToolSchema compile(String tool, Map<String, Object> inputSchema, ArgumentCheck check) {
        return new ToolSchema(String.valueOf(inputSchema.getOrDefault("title", tool)),
                String.valueOf(inputSchema.getOrDefault("description", "")), inputSchema,
                check.compile(inputSchema), ArgumentEnvelope.of(inputSchema));
    }
}
