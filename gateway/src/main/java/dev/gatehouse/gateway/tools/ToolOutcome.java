package dev.gatehouse.gateway.tools;

import dev.gatehouse.facade.error.ServiceError;
import java.util.Map;

/** What a handler returns: a projected result, or a service failure as a value (never an exception). */
public sealed interface ToolOutcome {

    /**
     * @param structuredContent the result re-projected field by field: no service-side identity
     *                          ({@code projectId}, {@code executorRef}, {@code workspaceRef}) and no credential
     */
    record Succeeded(Map<String, Object> structuredContent) implements ToolOutcome {
    }

    /** @param error the service failure, mapped once to an MCP tool error with its kind and recovery hint */
    record Failed(ServiceError error) implements ToolOutcome {
    }
}
