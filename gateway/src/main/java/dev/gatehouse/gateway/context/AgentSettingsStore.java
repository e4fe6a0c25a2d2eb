package dev.gatehouse.gateway.context;

import jakarta.inject.Singleton;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The in-memory {@link AgentDirectory}: agents' live settings keyed by (caller kind, id), and outside-agent
 * registrations keyed by (issuer, subject). Read on every call by the PIP; written by the admin API.
 */
@Singleton
public class AgentSettingsStore implements AgentDirectory {

    private final Map<AgentKey, AgentSettings> byAgent = new ConcurrentHashMap<>();
    private final Map<List<String>, OutsideAgentRegistration> registrations = new ConcurrentHashMap<>();

    /** Thread agents' settings ({@code PUT /admin/agents/{id}}): shorthand for {@link AgentKey#thread(String)}. */
    public void put(String threadAgentId, AgentSettings settings) {
        putSettings(AgentKey.thread(threadAgentId), settings);
    }

    /** A thread agent's settings: shorthand for {@link AgentKey#thread(String)}. */
    public AgentSettings get(String threadAgentId) {
        return settings(AgentKey.thread(threadAgentId));
    }

    @Override
    public AgentSettings settings(AgentKey agent) {
        return byAgent.getOrDefault(agent, AgentSettings.NONE);
    }

    @Override
    public void putSettings(AgentKey agent, AgentSettings settings) {
        byAgent.put(agent, settings);
    }

    @Override
    public Optional<OutsideAgentRegistration> registration(String issuer, String subject) {
        return Optional.ofNullable(registrations.get(List.of(issuer, subject)));
    }

    @Override
    public synchronized void register(OutsideAgentRegistration registration, AgentSettings settings) {
        byAgent.put(AgentKey.outside(registration.logicalAgentId()), settings);
        registrations.put(List.of(registration.issuer(), registration.subject()), registration);
    }

    @Override
    public boolean unregister(String issuer, String subject) {
        return registrations.remove(List.of(issuer, subject)) != null;
    }

    @Override
    public List<OutsideAgentRegistration> registrations() {
        return registrations.values().stream()
                .sorted(Comparator.comparing(OutsideAgentRegistration::issuer)
                        .thenComparing(OutsideAgentRegistration::subject))
                .toList();
    }
}
