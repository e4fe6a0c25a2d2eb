package dev.gatehouse.gateway.store;

import dev.gatehouse.gateway.mcp.HandshakeSessions;
import dev.gatehouse.gateway.mcp.McpProperties;
import dev.gatehouse.gateway.auth.SessionTokens;
import io.micronaut.scheduling.annotation.Scheduled;
import jakarta.inject.Singleton;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link HandshakeSessions} on the {@code handshake_session} table. Each process is one replica with a random id made
 * at start-up: a binding made before a restart belongs to a replica that no longer exists, so its client gets 404 and
 * initializes again (the SDK's session died with the process anyway).
 */
@Singleton
public class PostgresHandshakeSessions implements HandshakeSessions {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresHandshakeSessions.class);

    private final Database database;
    private final Duration idleTimeout;
    private final String replicaId = SessionTokens.newId();

    public PostgresHandshakeSessions(Database database, McpProperties properties) {
        this.database = database;
        this.idleTimeout = properties.getSessionIdleTimeout();
    }

    @Override
    public void bind(String sessionId, String bindingKey) {
        database.update("INSERT INTO handshake_session (mcp_session_id, owner, replica_id, last_used)"
                + " VALUES (?, ?, ?, now()) ON CONFLICT (mcp_session_id) DO NOTHING", statement -> {
                    statement.setString(1, sessionId);
                    statement.setString(2, bindingKey);
                    statement.setString(3, replicaId);
                });
    }

    @Override
    public boolean ownedBy(String sessionId, String bindingKey) {
        return database.update("UPDATE handshake_session SET last_used = now() WHERE mcp_session_id = ?"
                + " AND owner = ? AND replica_id = ? AND last_used > now() - ? * interval '1 millisecond'",
                statement -> {
                    statement.setString(1, sessionId);
                    statement.setString(2, bindingKey);
                    statement.setString(3, replicaId);
                    statement.setLong(4, idleTimeout.toMillis());
                }) > 0;
    }

    @Override
    public int held(String bindingKey) {
        return database.one("SELECT count(*) FROM handshake_session WHERE owner = ? AND replica_id = ?"
                + " AND last_used > now() - ? * interval '1 millisecond'", statement -> {
                    statement.setString(1, bindingKey);
                    statement.setString(2, replicaId);
                    statement.setLong(3, idleTimeout.toMillis());
                }, row -> row.getInt(1)).orElse(0);
    }

    @Override
    public void unbind(String sessionId) {
        database.update("DELETE FROM handshake_session WHERE mcp_session_id = ? AND replica_id = ?", statement -> {
            statement.setString(1, sessionId);
            statement.setString(2, replicaId);
        });
    }

    @Override
    public int endAllOf(String bindingKey) {
        return database.update("DELETE FROM handshake_session WHERE owner = ?",
                statement -> statement.setString(1, bindingKey));
    }

    /** Forgets bindings idle longer than the timeout (any replica may do it for all). */
    @Scheduled(fixedDelay = "1m", initialDelay = "1m")
    void forgetIdle() {
        try {
            database.update("DELETE FROM handshake_session WHERE last_used < now() - ? * interval '1 millisecond'",
                    statement -> statement.setLong(1, idleTimeout.toMillis()));
        } catch (StoreUnavailableException e) {
            LOG.warn("could not forget idle handshake sessions: {}", e.getMessage());
        }
    }
}
