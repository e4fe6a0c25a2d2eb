package dev.gatehouse.gateway.context;

import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Agents' live settings keyed by logical agent id (for outside agents: the token subject). Read on every call by
 * the PIP; written by the admin API. In memory.
 */
@Singleton
public class AgentSettingsStore {

    private final Map<String, AgentSettings> byAgent = new ConcurrentHashMap<>();

    /** Replaces the agent's settings; the next call of any of its sessions sees them. */
    public void put(String agentId, AgentSettings settings) {
        byAgent.put(agentId, settings);
    }

    /** The agent's settings, or {@link AgentSettings#NONE} when never set. */
    public AgentSettings get(String agentId) {
        return byAgent.getOrDefault(agentId, AgentSettings.NONE);
    }
}
