package dev.gatehouse.gateway.store;

import dev.gatehouse.gateway.context.AgentDirectory;
import dev.gatehouse.gateway.context.AgentKey;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.AgentSettingsStore;
import dev.gatehouse.gateway.context.OutsideAgentRegistration;
import jakarta.inject.Singleton;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

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

    /** Settings first, then the registration: a failure between the two leaves an unused agent, never a stray one. */
    @Override
    public void register(OutsideAgentRegistration registration, AgentSettings agentSettings) {
        settings.put(registration.logicalAgentId(), agentSettings);
        database.update("INSERT INTO outside_agent (" + COLUMNS + ", updated_at) VALUES (?, ?, ?, ?, now())"
                + " ON CONFLICT (issuer, subject) DO UPDATE SET logical_agent_id = EXCLUDED.logical_agent_id,"
                + " shares_thread_agent = EXCLUDED.shares_thread_agent, updated_at = now()", statement -> {
                    statement.setString(1, registration.issuer());
                    statement.setString(2, registration.subject());
                    statement.setString(3, registration.logicalAgentId());
                    statement.setString(4, registration.sharesThreadAgent().orElse(null));
                });
        registrations.invalidateAll(); // this replica at once; the others by the notification
    }

    @Override
    public boolean unregister(String issuer, String subject) {
        boolean removed = database.update("DELETE FROM outside_agent WHERE issuer = ? AND subject = ?", statement -> {
            statement.setString(1, issuer);
            statement.setString(2, subject);
        }) > 0;
        registrations.invalidateAll();
        return removed;
    }

    @Override
    public List<OutsideAgentRegistration> registrations() {
        return database.query("SELECT " + COLUMNS + " FROM outside_agent ORDER BY issuer, subject", statement -> {
        }, StoredAgentDirectory::registration);
    }

    private static OutsideAgentRegistration registration(ResultSet row) throws SQLException {
        return new OutsideAgentRegistration(row.getString("issuer"), row.getString("subject"),
                row.getString("logical_agent_id"), Optional.ofNullable(row.getString("shares_thread_agent")));
    }
}
