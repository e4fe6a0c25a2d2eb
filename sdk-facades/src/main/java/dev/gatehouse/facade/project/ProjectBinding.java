package dev.gatehouse.facade.project;

import java.util.Objects;

/**
 * The identity a Project Service call runs under, taken from the trusted context (docs/domain.md §6): the logical agent
 * and the Project Service project the session is bound to. Never from tool arguments.
 */
public record ProjectBinding(String agentId, String projectId) {
    public ProjectBinding {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(projectId, "projectId");
    }
}
