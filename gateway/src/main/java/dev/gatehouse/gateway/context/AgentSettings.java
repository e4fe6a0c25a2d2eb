package dev.gatehouse.gateway.context;

import dev.gatehouse.facts.CallerFacts;
import java.util.Objects;
import java.util.Optional;

/**
 * An agent's settings as the admin API stores them ({@code PUT /admin/agents/{agentId}}). Capabilities are derived
 * from these on every call (docs/domain.md §4), so a change applies to the next call of a live session.
 *
 * @param browserAccess grants {@code preview}
 * @param project       Project Service integration: grants {@code project.work.read} and {@code project.work.write}
 *                      and binds the project
 * @param wiki          grants {@code wiki.read} / {@code wiki.write} independently
 */
public record AgentSettings(boolean browserAccess, Project project, Wiki wiki) {

    /** Settings of an agent nobody configured: no optional capability. */
    public static final AgentSettings NONE = new AgentSettings(false, new Project(false, Optional.empty()),
            new Wiki(false, false));

    public AgentSettings {
        Objects.requireNonNull(project, "project");
        Objects.requireNonNull(wiki, "wiki");
    }

    /** These settings as the policy reads them (decision input {@code caller.settings}, docs/domain.md §4). */
    public CallerFacts.Settings facts() {
        return new CallerFacts.Settings(browserAccess, project.enabled(), project.projectServiceProjectId().isPresent(),
                wiki.read(), wiki.write());
    }

    /**
     * @param enabled                 the agent may use the Project tools
     * @param projectServiceProjectId the Project Service project the agent is bound to; without one the Project tools
     *                                are denied ({@code project_not_bound})
     */
    public record Project(boolean enabled, Optional<String> projectServiceProjectId) {
        public Project {
            Objects.requireNonNull(projectServiceProjectId, "projectServiceProjectId");
        }
    }

    /**
     * @param read  grants {@code wiki.read}
     * @param write grants {@code wiki.write}
     */
    public record Wiki(boolean read, boolean write) {
    }
}
