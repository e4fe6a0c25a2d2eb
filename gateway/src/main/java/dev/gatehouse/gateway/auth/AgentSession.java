package dev.gatehouse.gateway.auth;

import java.util.Objects;
import java.util.Optional;

/**
 * A thread caller's session, minted by the admin API when the host attaches an agent session (docs/domain.md §1). The
 * bearer token is not part of it: the store keeps only the token's SHA-256.
 *
 * @param sessionId          server-chosen id, used to revoke ({@code DELETE /admin/sessions/{id}})
 * @param environmentId      the host environment
 * @param threadId           the calling thread
 * @param providerSessionId  the agent host's provider session
 * @param providerInstanceId the provider instance the session runs on; a run is live only while the thread's
 *                           instance equals this one
 * @param logicalAgentId     the stable agent id
 * @param t3ProjectId        the thread's T3 project
 * @param agentName          display only
 * @param provider           the provider kind the host named when attaching ({@code codex}, {@code claude} …, from
 *                           the configured allowlist); recorded in the decision log, never used to decide
 */
public record AgentSession(String sessionId, String environmentId, String threadId, String providerSessionId,
        String providerInstanceId, String logicalAgentId, String t3ProjectId, Optional<String> agentName,
        String provider) {

    public AgentSession {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(environmentId, "environmentId");
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(providerSessionId, "providerSessionId");
        Objects.requireNonNull(providerInstanceId, "providerInstanceId");
        Objects.requireNonNull(logicalAgentId, "logicalAgentId");
        Objects.requireNonNull(t3ProjectId, "t3ProjectId");
        Objects.requireNonNull(agentName, "agentName");
        Objects.requireNonNull(provider, "provider");
    }
}
