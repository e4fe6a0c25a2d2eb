package dev.gatehouse.gateway.store;

import dev.gatehouse.gateway.auth.AgentSession;
import dev.gatehouse.gateway.auth.SessionProperties;
import dev.gatehouse.gateway.auth.SessionStore;
import dev.gatehouse.gateway.auth.SessionTokens;
import io.micronaut.scheduling.annotation.Scheduled;
import jakarta.inject.Singleton;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * {@link SessionStore} on the {@code agent_session} table. No cache: every lookup is one indexed read by token hash,
 * so a revocation or an expiry applies on every replica at the next call. Expiry and revocation are compared with
 * the database's clock ({@code now()}), the one clock all replicas share.
 */
@Singleton
public class PostgresSessionStore implements SessionStore {

    private static final String COLUMNS = "session_id, environment_id, thread_id, provider_session_id, "
            + "provider_instance_id, logical_agent_id, t3_project_id, agent_name, provider, created_at, expires_at";

    private final Database database;
    private final Duration ttl;

    public PostgresSessionStore(Database database, SessionProperties properties) {
        this.database = database;
        this.ttl = properties.getTtl();
    }

    @Override
    public void put(String token, AgentSession session) {
        database.update("INSERT INTO agent_session (session_id, token_sha256, environment_id, thread_id, "
                + "provider_session_id, provider_instance_id, logical_agent_id, t3_project_id, agent_name, provider, "
                + "created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, now(), now() + ? * interval '1 millisecond')",
                statement -> {
                    statement.setString(1, session.sessionId());
                    statement.setString(2, SessionTokens.hash(token));
                    statement.setString(3, session.environmentId());
                    statement.setString(4, session.threadId());
                    statement.setString(5, session.providerSessionId());
                    statement.setString(6, session.providerInstanceId());
                    statement.setString(7, session.logicalAgentId());
                    statement.setString(8, session.t3ProjectId());
                    statement.setString(9, session.agentName().orElse(null));
                    statement.setString(10, session.provider());
                    statement.setLong(11, ttl.toMillis());
                });
    }

    @Override
    public Optional<AgentSession> findByToken(String token) {
        return database.one("SELECT " + COLUMNS + " FROM agent_session WHERE token_sha256 = ?"
                + " AND revoked_at IS NULL AND expires_at > now()",
                statement -> statement.setString(1, SessionTokens.hash(token)),
                PostgresSessionStore::session);
    }

    @Override
    public boolean revoke(String sessionId) {
        return database.update("UPDATE agent_session SET revoked_at = now() WHERE session_id = ?"
                + " AND revoked_at IS NULL AND expires_at > now()",
                statement -> statement.setString(1, sessionId)) > 0;
    }

    @Override
    public List<Listed> current() {
        return database.query("SELECT " + COLUMNS + " FROM agent_session WHERE revoked_at IS NULL"
                + " AND expires_at > now() ORDER BY created_at DESC, session_id",
                statement -> {
                }, row -> new Listed(session(row), instant(row, "created_at"), instant(row, "expires_at")));
    }

    /** Removes sessions that ended more than a day ago, so the table does not grow without bound. */
    @Scheduled(fixedDelay = "1h", initialDelay = "1m")
    void forgetEnded() {
        try {
            database.update("DELETE FROM agent_session WHERE coalesce(revoked_at, expires_at)"
                + " < now() - interval '1 day'", statement -> {
                    });
        } catch (StoreUnavailableException e) {
            // Tried again at the next run.
        }
    }

    private static AgentSession session(ResultSet row) throws SQLException {
        return new AgentSession(row.getString("session_id"), row.getString("environment_id"),
                row.getString("thread_id"), row.getString("provider_session_id"),
                row.getString("provider_instance_id"), row.getString("logical_agent_id"),
                row.getString("t3_project_id"), Optional.ofNullable(row.getString("agent_name")),
                row.getString("provider"));
    }

    private static Instant instant(ResultSet row, String column) throws SQLException {
        Timestamp value = row.getTimestamp(column);
        return value.toInstant();
    }
}
