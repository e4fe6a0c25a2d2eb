package dev.gatehouse.gateway.support;

import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.AgentSettingsStore;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/** An {@link AgentSettingsStore} in a map, for unit tests that build their objects by hand. */
public final class InMemoryAgentSettingsStore implements AgentSettingsStore {

    private final Map<String, Versioned> byAgent = new ConcurrentHashMap<>();

    @Override
    public synchronized Write put(String agentId, AgentSettings settings, OptionalLong expectedVersion) {
        long current = find(agentId).map(Versioned::version).orElse(0L);
        if (expectedVersion.isPresent() && expectedVersion.getAsLong() != current) {
            return new Write.Conflict(current);
        }
        Versioned stored = new Versioned(settings, current + 1);
        byAgent.put(agentId, stored);
        return new Write.Stored(stored);
    }

    @Override
    public Optional<Versioned> find(String agentId) {
        return Optional.ofNullable(byAgent.get(agentId));
    }

    @Override
    public Optional<Versioned> remove(String agentId) {
        return Optional.ofNullable(byAgent.remove(agentId));
    }
}
