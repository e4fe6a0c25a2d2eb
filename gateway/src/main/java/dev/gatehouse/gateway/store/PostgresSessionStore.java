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
 * {@link SessionStore} on the {@code agent_session} table. A lookup is one indexed read by token hash, answered from
 * this replica's cache ({@link StoreChanges}) when it was read less than {@code gatehouse.database.cache-ttl} (at most
 * 1 s) ago and no change notification for it arrived since: a revocation applies on every replica at the next call
 * after its notification, and within that bound in any case. Expiry and revocation are compared with the database's
 * clock ({@code now()}), the one clock all replicas share; a cached session is never answered past its expiry.
 * Unknown tokens are not cached.
 */
@Singleton
public class PostgresSessionStore implements SessionStore {

    private static final String COLUMNS = "session_id, environment_id, thread_id, provider_session_id, "
            + "provider_instance_id, logical_agent_id, t3_project_id, agent_name, provider, created_at, expires_at";

    private final Database database;
    private final Duration ttl;
    private final StoreCache<Optional<AgentSession>> cache;

    public PostgresSessionStore(Database database, SessionProperties properties, StoreChanges changes) {
        this.database = database;
        this.ttl = properties.getTtl();
        this.cache = changes.cache("agent_session");
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
        String hash = SessionTokens.hash(token);
        return cache.get(hash, () -> database.one("SELECT " + COLUMNS
                + ", (extract(epoch FROM expires_at - now()) * 1000000000)::bigint AS remaining_nanos"
                + " FROM agent_session WHERE token_sha256 = ? AND revoked_at IS NULL AND expires_at > now()",
                statement -> statement.setString(1, hash),
                row -> new StoreCache.Loaded<>(Optional.of(session(row)), row.getLong("remaining_nanos")))
                .orElseGet(() -> StoreCache.Loaded.dontKeep(Optional.empty())));
    }

    @Override
    public boolean revoke(String sessionId) {
        Optional<String> revoked = database.one("UPDATE agent_session SET revoked_at = now() WHERE session_id = ?"
                + " AND revoked_at IS NULL AND expires_at > now() RETURNING token_sha256",
                statement -> statement.setString(1, sessionId), row -> row.getString(1));
        revoked.ifPresent(cache::invalidate); // this replica at once; the others by the notification
        return revoked.isPresent();
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
