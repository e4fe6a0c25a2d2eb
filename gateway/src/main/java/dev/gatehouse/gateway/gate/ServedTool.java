package dev.gatehouse.gateway.gate;

import dev.gatehouse.facts.AccessRow;
import dev.gatehouse.facts.ToolSchema;
import dev.gatehouse.gateway.tools.ToolHandler;
import java.util.Objects;

/**
 * One tool as one revision serves it: its access-table row and its compiled input schema from that revision, joined
 * by name with the handler that runs its allowed calls.
 *
 * @param name    the tool name, equal in the table, the schema's key and {@link ToolHandler#name()}
 * @param row     the access-table row
 * @param schema  the closed input schema
 * @param handler the only code that runs an allowed call
 */
public record ServedTool(String name, AccessRow row, ToolSchema schema, ToolHandler handler) {

    public ServedTool {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(row, "row");
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(handler, "handler");
    }
}
