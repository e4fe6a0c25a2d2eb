package dev.gatehouse.gateway.gate;

import java.util.Map;
import java.util.Objects;

/**
 * A tool's closed input schema, schemas/tools/&lt;tool&gt;.input.json, with the title and description it
 * publishes in tools/list.
 *
 * @param title       the schema's {@code title}
 * @param description the schema's {@code description}
 * @param inputSchema the whole schema document as JSON values ({@code Map}/{@code List}/scalars)
 */
public record ToolSchema(String title, String description, Map<String, Object> inputSchema) {

    public ToolSchema {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(description, "description");
        inputSchema = Map.copyOf(inputSchema);
    }

    /** The largest arguments the PEP validates and sends for this schema. */
    public ArgumentEnvelope envelope() {
        return ArgumentEnvelope.of(inputSchema);
    }
}
