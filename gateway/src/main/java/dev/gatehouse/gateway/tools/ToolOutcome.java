package dev.gatehouse.gateway.tools;

import dev.gatehouse.facade.error.ServiceError;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** What a handler returns: a projected result, or a service failure as a value (never an exception). */
public sealed interface ToolOutcome {

    /**
     * @param structuredContent the result re-projected field by field: no service-side identity
     *                          ({@code projectId}, {@code executorRef}, {@code workspaceRef}) and no credential
     */
    record Succeeded(Map<String, Object> structuredContent) implements ToolOutcome {
    }

    /**
     * @param error the service failure, mapped once to an MCP tool error with its kind
     * @param hint  the tool that shows the current state after this failure (docs/domain.md §8), named by the
     *              toolkit that failed; empty when none helps
     */
    record Failed(ServiceError error, Optional<String> hint) implements ToolOutcome {
        public Failed {
            Objects.requireNonNull(error, "error");
            Objects.requireNonNull(hint, "hint");
        }
    }
}
