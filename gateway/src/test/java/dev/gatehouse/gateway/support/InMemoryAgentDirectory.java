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
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An {@link AgentDirectory} in memory for tests of the PIP, the gate and the admin API: settings in an
 * {@link AgentSettingsStore} (in memory unless one is given), registrations in a map. Same semantics as the stored
 * one: settings under the agent's id, the namespaces kept apart by the ids themselves.
 */
public final class InMemoryAgentDirectory implements AgentDirectory {

    private final AgentSettingsStore settings;
    private final Map<List<String>, Registered> registrations = new ConcurrentHashMap<>();

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
        return Optional.ofNullable(registrations.get(List.of(issuer, subject))).map(Registered::registration);
    }

    @Override
    public synchronized Write register(OutsideAgentRegistration registration, AgentSettings agentSettings,
            OptionalLong expectedVersion) {
        List<String> pair = List.of(registration.issuer(), registration.subject());
        if (registrations.entrySet().stream().anyMatch(e -> !e.getKey().equals(pair)
                && e.getValue().registration().logicalAgentId().equals(registration.logicalAgentId()))) {
            throw new AgentIdTakenException(null);
        }
        Optional<Registered> before = Optional.ofNullable(registrations.get(pair));
        long current = before.map(Registered::version).orElse(0L);
        if (expectedVersion.isPresent() && expectedVersion.getAsLong() != current) {
            return new Write.Conflict(current);
        }
        settings.put(registration.logicalAgentId(), agentSettings);
        registrations.put(pair, new Registered(registration, current + 1));
        Optional<OutsideAgentRegistration> replaced = before.map(Registered::registration);
        replaced.map(OutsideAgentRegistration::logicalAgentId)
                .filter(id -> !id.equals(registration.logicalAgentId())).ifPresent(settings::remove);
        return new Write.Stored(replaced, current + 1);
    }

    /** Registers with last write wins, for tests that set a registration up. */
    public Optional<OutsideAgentRegistration> register(OutsideAgentRegistration registration,
            AgentSettings agentSettings) {
        return ((Write.Stored) register(registration, agentSettings, OptionalLong.empty())).replaced();
    }

    @Override
    public synchronized Optional<Removed> unregister(String issuer, String subject) {
        return Optional.ofNullable(registrations.remove(List.of(issuer, subject))).map(Registered::registration)
                .map(removed -> new Removed(removed,
                settings.remove(removed.logicalAgentId()).map(AgentSettingsStore.Versioned::settings)
                        .orElse(AgentSettings.NONE)));
    }

    @Override
    public List<Registered> registrations() {
        return registrations.values().stream().sorted(Comparator.comparing((Registered r) -> r.registration().issuer())
                .thenComparing(r -> r.registration().subject())).toList();
    }
}
