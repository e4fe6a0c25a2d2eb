package dev.gatehouse.gateway.context;

import java.util.List;
import java.util.Optional;

/**
 * Where the PIP reads agents from and the admin API writes them: each agent's settings, keyed by caller kind and id,
 * and the outside-agent registrations (issuer + subject → logical agent). One store behind one small interface, so
 * the whole of it can move to a database at once. Every read is of the current state (docs/domain.md §4).
 */
public interface AgentDirectory {

    /** The agent's settings, or {@link AgentSettings#NONE} when never set. */
    AgentSettings settings(AgentKey agent);

    /** Replaces the agent's settings; the next call of any of its sessions sees them. */
    void putSettings(AgentKey agent, AgentSettings settings);

    /** The registration for this token issuer and subject, compared exactly. */
    Optional<OutsideAgentRegistration> registration(String issuer, String subject);

    /** Adds or replaces the registration for its issuer and subject, and stores its settings beside it. */
    void register(OutsideAgentRegistration registration, AgentSettings settings);

    /**
     * Removes the registration (the settings of its logical agent stay, as for any agent).
     *
     * @return false when there was none
     */
    boolean unregister(String issuer, String subject);

    /** Every registration, ordered by issuer then subject. */
    List<OutsideAgentRegistration> registrations();
}
