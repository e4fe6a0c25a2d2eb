package dev.gatehouse.facts;

import java.util.Objects;
import java.util.Optional;

/**
 * Exactly what the PDP sees of one Project Work notice (the {@code notice} member of schemas/decision-input.json,
 * docs/domain.md §9): facts only, the policy draws every conclusion. Display names are never facts.
 *
 * @param projectClientId this environment's Project client, when configured
 * @param notice          the notice's routing fields
 * @param agent           the agent's delivery profile and Project binding; empty when the agent has no profile
 * @param thread          the mapped thread as the host reported it
 */
public record NoticeInput(Optional<String> projectClientId, Notice notice, Optional<Agent> agent, Thread thread) {

    public NoticeInput {
        Objects.requireNonNull(projectClientId, "projectClientId");
        Objects.requireNonNull(notice, "notice");
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(thread, "thread");
    }

    /** The notice's routing fields, as the Project Service sent them. */
    public record Notice(String noticeId, int version, String agentId, String projectId) {
    }

    /**
     * The agent's delivery profile and Project binding.
     *
     * @param projectClientId         the Project client the agent is bound to
     * @param projectEnabled          the agent's Project Service integration is on
     * @param projectServiceProjectId the Project Service project bound to the agent, if any
     * @param runtimeMode             the runtime mode configured for threads created for its notices, if any
     * @param interactionMode         the interaction mode configured for them, if any
     * @param limitRuntimeMode        the agent's runtime limit
     * @param limitInteractionMode    the agent's interaction limit
     */
    public record Agent(String projectClientId, boolean projectEnabled, Optional<String> projectServiceProjectId,
            Optional<String> runtimeMode, Optional<String> interactionMode, String limitRuntimeMode,
            String limitInteractionMode) {
    }

    /**
     * The thread mapped to the agent and project.
     *
     * @param lookup        {@code none}, {@code found}, {@code not_found} or {@code unavailable}
     * @param threadId      the mapped thread, when one is mapped
     * @param archived      whether it is archived, when found
     * @param agentId       the agent the host says owns it, when found and reported
     * @param workProjectId the Project Service project the host says it works on, when found and reported
     */
    public record Thread(String lookup, Optional<String> threadId, Optional<Boolean> archived,
            Optional<String> agentId, Optional<String> workProjectId) {
    }
}
