package dev.gatehouse.gateway.notice;

import java.util.Objects;
import java.util.Optional;

/**
 * An agent's notice delivery profile ({@code PUT /admin/notices/agents/{agentId}}): facts for the policy, which
 * decides what they allow.
 *
 * @param agentId                the thread agent
 * @param projectClientId        the Project client the agent is bound to
 * @param runtimeMode            the runtime mode configured for threads created for its notices, if any
 * @param interactionMode        the interaction mode configured for them, if any
 * @param limitRuntimeMode       the agent's runtime limit (the policy caps the configured mode by it)
 * @param limitInteractionMode   the agent's interaction limit
 */
public record DeliveryProfile(String agentId, String projectClientId, Optional<String> runtimeMode,
        Optional<String> interactionMode, String limitRuntimeMode, String limitInteractionMode) {

    public DeliveryProfile {
        Objects.requireNonNull(agentId, "agentId");
        Objects.requireNonNull(projectClientId, "projectClientId");
        Objects.requireNonNull(runtimeMode, "runtimeMode");
        Objects.requireNonNull(interactionMode, "interactionMode");
        Objects.requireNonNull(limitRuntimeMode, "limitRuntimeMode");
        Objects.requireNonNull(limitInteractionMode, "limitInteractionMode");
    }
}
