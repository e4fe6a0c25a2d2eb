package dev.gatehouse.gateway.gate;

import dev.gatehouse.gateway.tools.ToolHandler;
import java.util.Objects;

/**
 * One served tool: its access-table row, its closed input schema and its handler, joined by name.
 *
 * @param name    the tool name, equal in the table, the schema file name and {@link ToolHandler#name()}
 * @param row     the access-table row
 * @param schema  the closed input schema
 * @param handler the only code that runs an allowed call
 */
public record RegisteredTool(String name, AccessRow row, ToolSchema schema, ToolHandler handler) {

    public RegisteredTool {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(row, "row");
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(handler, "handler");
    }
}
