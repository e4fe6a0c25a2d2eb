package dev.gatehouse.gateway.store;

import dev.gatehouse.gateway.context.AgentDirectory;
import dev.gatehouse.gateway.context.AgentIdTakenException;
import dev.gatehouse.gateway.context.AgentKey;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.AgentSettingsStore;
import dev.gatehouse.gateway.context.OutsideAgentRegistration;
import jakarta.inject.Singleton;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The {@link AgentDirectory} every replica shares: settings in {@code agent_settings} (through the
 * {@link AgentSettingsStore}) and registrations in {@code outside_agent}. Settings are stored under the agent's id
 * alone: the two namespaces cannot meet, because a thread agent's id may never lie in the outside-agent namespace
 * ({@code oa-…}; the admin API refuses it) and an outside agent's always does. A change applies on every
 * replica at the next call after its change notification, and within {@code gatehouse.database.cache-ttl} (at most
 * 1 s) in any case: settings and registrations are read through this replica's caches ({@link StoreChanges}). Every
 * method may throw {@link StoreUnavailableException}.
 */
@Singleton
public class StoredAgentDirectory implements AgentDirectory {

    private static final String COLUMNS = "issuer, subject, logical_agent_id, shares_thread_agent";

    private final AgentSettingsStore settings;
    private final Database database;
    private final StoreCache<Optional<OutsideAgentRegistration>> registrations;

    public StoredAgentDirectory(AgentSettingsStore settings, Database database, StoreChanges changes) {
        this.settings = settings;
        this.database = database;
        this.registrations = changes.cache("outside_agent");
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
        // A newline cannot end an issuer URL, so the key names one issuer + subject pair only.
        return registrations.get(issuer + "\n" + subject, () -> StoreCache.Loaded.keep(database.one(
                "SELECT " + COLUMNS + " FROM outside_agent WHERE issuer = ? AND subject = ?",
                statement -> {
                    statement.setString(1, issuer);
                    statement.setString(2, subject);
                }, StoredAgentDirectory::registration)));
    }

    /**
     * One transaction: the pair's current row locked and its version compared, the registration, then the settings,
     * then the removal of the settings of the id it replaces. The upsert is guarded by the version too, for a writer
     * that found no row while another inserted one. The unique index on {@code logical_agent_id} (migration V14)
     * refuses an id another pair holds, also when two writers race for it; the conflict on {@code (issuer, subject)}
     * is the upsert's own, so a unique violation here can only be that index.
     */
    @Override
    public Write register(OutsideAgentRegistration registration, AgentSettings agentSettings,
            OptionalLong expectedVersion) {
        Write write = database.inTransaction(() -> {
            Optional<Registered> before = database.one("SELECT " + COLUMNS + ", version FROM outside_agent"
                    + " WHERE issuer = ? AND subject = ? FOR UPDATE", statement -> {
                        statement.setString(1, registration.issuer());
                        statement.setString(2, registration.subject());
                    }, StoredAgentDirectory::registered);
            long current = before.map(Registered::version).orElse(0L);
            if (expectedVersion.isPresent() && expectedVersion.getAsLong() != current) {
                return new Write.Conflict(current);
            }
            Optional<Long> version = upsert(registration, expectedVersion);
            if (version.isEmpty()) {
                return new Write.Conflict(currentVersion(registration.issuer(), registration.subject()));
            }
            settings.put(registration.logicalAgentId(), agentSettings);
            before.map(r -> r.registration().logicalAgentId())
                    .filter(id -> !id.equals(registration.logicalAgentId())).ifPresent(settings::remove);
            return new Write.Stored(before.map(Registered::registration), version.get());
        });
        registrations.invalidateAll(); // this replica at once; the others by the notification
        return write;
    }

    /** The upsert; empty when a row inserted since the lock was taken is not at {@code expectedVersion}. */
    private Optional<Long> upsert(OutsideAgentRegistration registration, OptionalLong expectedVersion) {
        try {
            return database.one("INSERT INTO outside_agent (" + COLUMNS + ", version, updated_at)"
                    + " VALUES (?, ?, ?, ?, 1, now()) ON CONFLICT (issuer, subject) DO UPDATE SET"
                    + " logical_agent_id = EXCLUDED.logical_agent_id,"
                    + " shares_thread_agent = EXCLUDED.shares_thread_agent, version = outside_agent.version + 1,"
                    + " updated_at = now() WHERE ? OR outside_agent.version = ? RETURNING version", statement -> {
                        statement.setString(1, registration.issuer());
                        statement.setString(2, registration.subject());
                        statement.setString(3, registration.logicalAgentId());
                        statement.setString(4, registration.sharesThreadAgent().orElse(null));
                        statement.setBoolean(5, expectedVersion.isEmpty());
                        statement.setLong(6, expectedVersion.orElse(0));
                    }, row -> row.getLong(1));
        } catch (StoreDuplicateKeyException e) {
            throw new AgentIdTakenException(e);
        }
    }

    private long currentVersion(String issuer, String subject) {
        return database.one("SELECT version FROM outside_agent WHERE issuer = ? AND subject = ?", statement -> {
            statement.setString(1, issuer);
            statement.setString(2, subject);
        }, row -> row.getLong(1)).orElse(0L);
    }

    /** One transaction: the row and its agent's settings go together. */
    @Override
    public Optional<Removed> unregister(String issuer, String subject) {
        Optional<Removed> removed = database.inTransaction(() -> database.one("DELETE FROM outside_agent"
                + " WHERE issuer = ? AND subject = ? RETURNING " + COLUMNS, statement -> {
                    statement.setString(1, issuer);
                    statement.setString(2, subject);
                }, StoredAgentDirectory::registration).map(registration -> new Removed(registration,
                        settings.remove(registration.logicalAgentId()).map(AgentSettingsStore.Versioned::settings)
                                .orElse(AgentSettings.NONE))));
        registrations.invalidateAll();
        return removed;
    }

    @Override
    public List<Registered> registrations() {
        return database.query("SELECT " + COLUMNS + ", version FROM outside_agent ORDER BY issuer, subject",
                statement -> {
                }, StoredAgentDirectory::registered);
    }

    private static Registered registered(ResultSet row) throws SQLException {
        return new Registered(registration(row), row.getLong("version"));
    }

    private static OutsideAgentRegistration registration(ResultSet row) throws SQLException {
        return new OutsideAgentRegistration(row.getString("issuer"), row.getString("subject"),
                row.getString("logical_agent_id"), Optional.ofNullable(row.getString("shares_thread_agent")));
    }
}
