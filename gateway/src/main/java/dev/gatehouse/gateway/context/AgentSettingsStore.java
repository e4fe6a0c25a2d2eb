package dev.gatehouse.gateway.context;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * Agents' live settings keyed by logical agent id (for outside agents: the registered or derived {@code oa-} id),
 * with an optimistic version.
 * Read on every call by the PIP; written by the admin API. Shared by every replica (PostgreSQL,
 * {@code dev.gatehouse.gateway.store}), so a change applies on all at the next call after the store announced it,
 * and at the latest {@code gatehouse.database.cache-ttl} (≤ 1 s) after it (store.StoreChanges).
 *
 * <p>Every method may throw {@link dev.gatehouse.gateway.store.StoreUnavailableException} when the store does not
 * answer.
 */
public interface AgentSettingsStore {

    /**
     * Replaces the agent's settings in one atomic statement.
     *
     * @param expectedVersion the version the writer read ({@code 0}: the agent has none yet); empty: last write wins
     * @return the stored settings with their new version, or {@link Write.Conflict} with the current version when
     *         {@code expectedVersion} is stale
     */
    Write put(String agentId, AgentSettings settings, OptionalLong expectedVersion);

    /** Replaces the agent's settings, last write wins (atomically); returns the new version. */
    default long put(String agentId, AgentSettings settings) {
        return ((Write.Stored) put(agentId, settings, OptionalLong.empty())).stored().version();
    }

    /** The agent's settings, or {@link AgentSettings#NONE} when never set. */
    default AgentSettings get(String agentId) {
        return find(agentId).map(Versioned::settings).orElse(AgentSettings.NONE);
    }

    /** The agent's settings with their version, when ever set. */
    Optional<Versioned> find(String agentId);

    /**
     * Removes the agent's settings in one statement: from the next call on it holds {@link AgentSettings#NONE}, and a
     * later write starts again at version 1.
     *
     * @return the settings removed, if there were any
     */
    Optional<Versioned> remove(String agentId);

    /** Settings as stored, with their version (1 for the first write, +1 per write). */
    record Versioned(AgentSettings settings, long version) {
    }

    /** The outcome of {@link #put}. */
    sealed interface Write {
        record Stored(Versioned stored) implements Write {
        }

        /** @param currentVersion the version now stored ({@code 0} when the agent has none) */
        record Conflict(long currentVersion) implements Write {
        }
    }
}
