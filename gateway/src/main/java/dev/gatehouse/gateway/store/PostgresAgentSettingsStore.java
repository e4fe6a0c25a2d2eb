package dev.gatehouse.gateway.store;

import dev.gatehouse.gateway.admin.AgentListing;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.AgentSettingsStore;
import jakarta.inject.Singleton;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@link AgentSettingsStore} on the {@code agent_settings} table. Each write is one statement: an upsert that
 * raises the version (last write wins, atomically), or, with an expected version, an update guarded by it (or an
 * insert guarded by absence for version 0), so concurrent admin updates never lose one silently. {@link #get} (the PIP's read on every call) is answered from
 * this replica's cache ({@link StoreChanges}): a change applies on every replica at the next call after its
 * notification, and within {@code gatehouse.database.cache-ttl} (at most 1 s) in any case. {@link #find} (the admin
 * API's versioned read) always asks PostgreSQL.
 */
@Singleton
public class PostgresAgentSettingsStore implements AgentSettingsStore, AgentListing {

    private static final String VALUES = "browser_access, project_enabled, project_service_project_id, wiki_read, "
            + "wiki_write";

    private final Database database;
    private final StoreCache<Optional<Versioned>> cache;

    public PostgresAgentSettingsStore(Database database, StoreChanges changes) {
        this.database = database;
        this.cache = changes.cache("agent_settings");
    }

    @Override
    public Write put(String agentId, AgentSettings settings, OptionalLong expectedVersion) {
        Optional<Long> version;
        if (expectedVersion.isEmpty()) {
            version = database.one("INSERT INTO agent_settings (agent_id, " + VALUES + ", version, updated_at)"
                    + " VALUES (?, ?, ?, ?, ?, ?, 1, now()) ON CONFLICT (agent_id) DO UPDATE SET"
                    + " browser_access = EXCLUDED.browser_access, project_enabled = EXCLUDED.project_enabled,"
                    + " project_service_project_id = EXCLUDED.project_service_project_id,"
                    + " wiki_read = EXCLUDED.wiki_read, wiki_write = EXCLUDED.wiki_write,"
                    + " version = agent_settings.version + 1, updated_at = now() RETURNING version",
                    statement -> bind(statement, agentId, settings), row -> row.getLong(1));
        } else if (expectedVersion.getAsLong() == 0) {
            version = database.one("INSERT INTO agent_settings (agent_id, " + VALUES + ", version, updated_at)"
                    + " VALUES (?, ?, ?, ?, ?, ?, 1, now()) ON CONFLICT (agent_id) DO NOTHING RETURNING version",
                    statement -> bind(statement, agentId, settings), row -> row.getLong(1));
        } else {
            version = database.one("UPDATE agent_settings SET browser_access = ?, project_enabled = ?,"
                    + " project_service_project_id = ?, wiki_read = ?, wiki_write = ?, version = version + 1,"
                    + " updated_at = now() WHERE agent_id = ? AND version = ? RETURNING version",
                    statement -> {
                        bindValues(statement, 1, settings);
                        statement.setString(6, agentId);
                        statement.setLong(7, expectedVersion.getAsLong());
                    }, row -> row.getLong(1));
        }
        cache.invalidate(agentId); // this replica at once; the others by the notification
        if (version.isPresent()) {
            return new Write.Stored(new Versioned(settings, version.get()));
        }
        return new Write.Conflict(find(agentId).map(Versioned::version).orElse(0L));
    }

    @Override
    public AgentSettings get(String agentId) {
        return cache.get(agentId, () -> StoreCache.Loaded.keep(find(agentId)))
                .map(Versioned::settings).orElse(AgentSettings.NONE);
    }

    @Override
    public Optional<Versioned> find(String agentId) {
        return database.one("SELECT " + VALUES + ", version FROM agent_settings WHERE agent_id = ?",
                statement -> statement.setString(1, agentId), PostgresAgentSettingsStore::versioned);
    }

    @Override
    public Optional<Versioned> remove(String agentId) {
        Optional<Versioned> removed = database.one("DELETE FROM agent_settings WHERE agent_id = ? RETURNING " + VALUES
                + ", version", statement -> statement.setString(1, agentId), PostgresAgentSettingsStore::versioned);
        cache.invalidate(agentId); // this replica at once; the others by the notification
        return removed;
    }

    @Override
    public List<String> agentIds() {
        return database.query("SELECT agent_id FROM agent_settings ORDER BY agent_id", statement -> {
        }, row -> row.getString(1));
    }

    private static void bind(PreparedStatement statement, String agentId, AgentSettings settings)
            throws SQLException {
        statement.setString(1, agentId);
        bindValues(statement, 2, settings);
    }

    private static void bindValues(PreparedStatement statement, int first, AgentSettings settings)
            throws SQLException {
        statement.setBoolean(first, settings.browserAccess());
        statement.setBoolean(first + 1, settings.project().enabled());
        statement.setString(first + 2, settings.project().projectServiceProjectId().orElse(null));
        statement.setBoolean(first + 3, settings.wiki().read());
        statement.setBoolean(first + 4, settings.wiki().write());
    }

    private static Versioned versioned(ResultSet row) throws SQLException {
        AgentSettings settings = new AgentSettings(row.getBoolean("browser_access"),
                new AgentSettings.Project(row.getBoolean("project_enabled"),
                        Optional.ofNullable(row.getString("project_service_project_id"))),
                new AgentSettings.Wiki(row.getBoolean("wiki_read"), row.getBoolean("wiki_write")));
        return new Versioned(settings, row.getLong("version"));
    }
}
