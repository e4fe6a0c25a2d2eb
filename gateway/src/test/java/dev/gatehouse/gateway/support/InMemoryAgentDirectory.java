package dev.gatehouse.gateway.support;

import dev.gatehouse.gateway.context.AgentDirectory;
import dev.gatehouse.gateway.context.AgentIdTakenException;
import dev.gatehouse.gateway.context.AgentKey;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.AgentSettingsStore;
import dev.gatehouse.gateway.context.OutsideAgentRegistration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An {@link AgentDirectory} in memory for tests of the PIP, the gate and the admin API: settings in an
 * {@link AgentSettingsStore} (in memory unless one is given), registrations in a map. Same semantics as the stored
 * one: settings under the agent's id, the namespaces kept apart by the ids themselves.
 */
public final class InMemoryAgentDirectory implements AgentDirectory {

    private final AgentSettingsStore settings;
    private final Map<List<String>, OutsideAgentRegistration> registrations = new ConcurrentHashMap<>();

    public InMemoryAgentDirectory() {
        this(new InMemoryAgentSettingsStore());
    }

    public InMemoryAgentDirectory(AgentSettingsStore settings) {
        this.settings = settings;
    }

    /** A thread agent's settings ({@code PUT /admin/agents/{id}}). */
    public void put(String threadAgentId, AgentSettings agentSettings) {
        putSettings(AgentKey.thread(threadAgentId), agentSettings);
    }

    /** A thread agent's settings. */
    public AgentSettings get(String threadAgentId) {
        return settings(AgentKey.thread(threadAgentId));
    }

    @Override
    public AgentSettings settings(AgentKey agent) {
        return settings.get(agent.id());
    }

    @Override
    public void putSettings(AgentKey agent, AgentSettings agentSettings) {
        settings.put(agent.id(), agentSettings);
    }

    @Override
    public Optional<OutsideAgentRegistration> registration(String issuer, String subject) {
        return Optional.ofNullable(registrations.get(List.of(issuer, subject)));
    }

    @Override
    public synchronized Optional<OutsideAgentRegistration> register(OutsideAgentRegistration registration,
            AgentSettings agentSettings) {
        List<String> pair = List.of(registration.issuer(), registration.subject());
        if (registrations.entrySet().stream().anyMatch(e -> !e.getKey().equals(pair)
                && e.getValue().logicalAgentId().equals(registration.logicalAgentId()))) {
            throw new AgentIdTakenException(null);
        }
        settings.put(registration.logicalAgentId(), agentSettings);
        Optional<OutsideAgentRegistration> replaced = Optional.ofNullable(registrations.put(pair, registration));
        replaced.map(OutsideAgentRegistration::logicalAgentId)
                .filter(id -> !id.equals(registration.logicalAgentId())).ifPresent(settings::remove);
        return replaced;
    }

    @Override
    public synchronized Optional<Removed> unregister(String issuer, String subject) {
        return Optional.ofNullable(registrations.remove(List.of(issuer, subject))).map(removed -> new Removed(removed,
                settings.remove(removed.logicalAgentId()).map(AgentSettingsStore.Versioned::settings)
                        .orElse(AgentSettings.NONE)));
    }

    @Override
    public List<OutsideAgentRegistration> registrations() {
        return registrations.values().stream().sorted(Comparator.comparing(OutsideAgentRegistration::issuer)
                .thenComparing(OutsideAgentRegistration::subject)).toList();
    }
}
