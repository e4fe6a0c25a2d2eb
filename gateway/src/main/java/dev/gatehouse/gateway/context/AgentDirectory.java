package dev.gatehouse.gateway.context;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

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

    /**
     * Adds or replaces the registration for its issuer and subject, and stores its settings beside it, all at once,
     * when the pair's registration is still at {@code expectedVersion}. When the pair was registered under another
     * logical agent id, that id's settings are removed: no caller acts as it any more, and the pair's derived id must
     * not keep settings for the day the registration is removed.
     *
     * @param expectedVersion the registration's version the writer read ({@code 0}: none registered); empty: last
     *                        write wins
     * @return {@link Write.Stored} with the registration replaced, if any, and the new version; or
     *         {@link Write.Conflict} with the current version when {@code expectedVersion} is stale, and then nothing
     *         was written
     * @throws AgentIdTakenException when another issuer and subject are registered under the same logical agent id;
     *                               then nothing was written
     */
    Write register(OutsideAgentRegistration registration, AgentSettings settings, OptionalLong expectedVersion);

    /**
     * Removes the registration and its logical agent's settings, all at once: from the next call on the pair acts as
     * its derived id ({@link OutsideAgentIds#derive}) with no settings, so nothing it was granted stays in force
     * (docs/domain.md §1).
     *
     * @return what was removed; empty when there was no registration
     */
    Optional<Removed> unregister(String issuer, String subject);

    /** Every registration with its version, ordered by issuer then subject. */
    List<Registered> registrations();

    /**
     * A registration as stored.
     *
     * @param registration the registration
     * @param version      its version: 1 when first written, +1 for each write
     */
    record Registered(OutsideAgentRegistration registration, long version) {
    }

    /** The outcome of {@link #register}. */
    sealed interface Write {

        /**
         * @param replaced the registration the pair had before, if any
         * @param version  the registration's new version
         */
        record Stored(Optional<OutsideAgentRegistration> replaced, long version) implements Write {
        }

        /** @param currentVersion the pair's version now ({@code 0} when not registered) */
        record Conflict(long currentVersion) implements Write {
        }
    }

    /**
     * A removed registration.
     *
     * @param registration the registration as it was
     * @param settings     the settings of its logical agent, removed with it ({@link AgentSettings#NONE}: it had none)
     */
    record Removed(OutsideAgentRegistration registration, AgentSettings settings) {
    }
}
