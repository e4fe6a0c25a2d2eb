package dev.gatehouse.gateway.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.gateway.auth.AgentSession;
import dev.gatehouse.gateway.auth.SessionStore;
import dev.gatehouse.gateway.auth.SessionTokens;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.AgentSettingsStore;
import dev.gatehouse.gateway.mcp.HandshakeSessions;
import io.micronaut.context.ApplicationContext;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.LongStream;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The PostgreSQL stores on the embedded server of this JVM (a fresh database per context): expiry, revocation,
 * versioned settings under concurrent writers, handshake bindings per replica, and the schema checks at start-up.
 */
class PostgresStoresTest {

    /** Moves a session's creation and expiry back by {@code ?} ms. */
    private static final String SESSION_OLDER = "UPDATE agent_session SET created_at = created_at - ? * interval"
            + " '1 ms', expires_at = expires_at - ? * interval '1 ms' WHERE session_id = ?";
    /** Moves a handshake binding's last use back by {@code ?} ms. */
    private static final String BINDING_OLDER = "UPDATE handshake_session SET last_used = last_used - ? * interval"
            + " '1 ms' WHERE mcp_session_id = ?";

    private static ApplicationContext context;

    @BeforeAll
    static void start() {
        // Lifetimes are passed by moving the rows' times back, never by waiting; the lookup cache is off, so every
        // read sees the row as it is now (the cache has its own test, StoreCacheTest).
        context = ApplicationContext.run(Map.of("gatehouse.sessions.ttl", "1h",
                "gatehouse.mcp.session-idle-timeout", "1h", "gatehouse.database.cache-ttl", "0s",
                "micronaut.server.port", "-1"), "test");
    }

    @AfterAll
    static void stop() {
        context.close();
    }

    /** The pool itself, outside Micronaut Data's connection management. */
    private static DataSource raw() {
        return io.micronaut.data.connection.jdbc.advice.DelegatingDataSource.unwrapDataSource(
                context.getBean(DataSource.class));
    }

    private static AgentSession session(String id) {
        return new AgentSession(id, "local", "t1", "ps-1", "pi-1", "a1", "demo", Optional.of("Agent one"), "claude");
    }

    /**
     * A value PostgreSQL refuses (U+0000 in a text, SQLState 22021), on its own and inside a transaction, is a
     * {@link StoreRefusedValueException}: the request's bad input, never a {@link StoreUnavailableException} that
     * would be answered 503 with Retry-After. Nothing is written. (The admin services refuse such texts before the
     * store; this is what any other stored text meets.)
     */
    @Test
    void aValueThePostgresRefusesIsNotAnOutage() {
        Database database = context.getBean(Database.class);
        String insert = "INSERT INTO handshake_session (mcp_session_id, owner, replica_id, last_used)"
                + " VALUES (?, ?, 'r', now())";
        assertThrows(StoreRefusedValueException.class, () -> database.update(insert, statement -> {
            statement.setString(1, "nul-alone");
            statement.setString(2, "a\u0000b");
        }));
        assertThrows(StoreRefusedValueException.class, () -> database.inTransaction(() -> {
            database.update(insert, statement -> {
                statement.setString(1, "nul-first");
                statement.setString(2, "o");
            });
            return database.update(insert, statement -> {
                statement.setString(1, "nul-second");
                statement.setString(2, "a\u0000b");
            });
        }));
        assertEquals(List.of(0L), database.query("SELECT count(*) FROM handshake_session WHERE mcp_session_id LIKE"
                + " 'nul-%'", statement -> {
                }, row -> row.getLong(1)));
    }

    @Test
    void sessionsAreFoundByTokenUntilRevokedOrExpired() throws Exception {
        SessionStore sessions = context.getBean(SessionStore.class);
        String token = SessionTokens.mint();
        String other = SessionTokens.mint();
        String id = SessionTokens.newId();
        String otherId = SessionTokens.newId();
        sessions.put(token, session(id));
        sessions.put(other, session(otherId));
        assertEquals("claude", sessions.findByToken(token).orElseThrow().provider());
        assertEquals(Optional.of("Agent one"), sessions.findByToken(token).orElseThrow().agentName());
        assertTrue(sessions.current().stream().anyMatch(l -> l.session().sessionId().equals(id)));
        assertTrue(sessions.revoke(id));
        assertFalse(sessions.revoke(id), "revoked once");
        assertTrue(sessions.findByToken(token).isEmpty());
        assertTrue(sessions.current().stream().noneMatch(l -> l.session().sessionId().equals(id)));

        SessionStore.Listed listed = sessions.current().stream()
                .filter(l -> l.session().sessionId().equals(otherId)).findFirst().orElseThrow();
        assertEquals(Duration.ofHours(1), Duration.between(listed.createdAt(), listed.expiresAt()),
                "gatehouse.sessions.ttl");
        olderBy(Duration.ofMinutes(59), SESSION_OLDER, otherId);
        assertTrue(sessions.findByToken(other).isPresent(), "59 minutes into its hour");
        olderBy(Duration.ofMinutes(1), SESSION_OLDER, otherId);
        assertTrue(sessions.findByToken(other).isEmpty(), "expired once its hour has passed");
        assertTrue(sessions.current().stream().noneMatch(l -> l.session().sessionId().equals(otherId)));
    }

    @Test
    void settingsAreVersionedAndConcurrentWritersLoseNothing() throws Exception {
        AgentSettingsStore settings = context.getBean(AgentSettingsStore.class);
        String agent = "agent-" + SessionTokens.newId();
        AgentSettings on = new AgentSettings(true, new AgentSettings.Project(true, Optional.of("ps-1")),
                new AgentSettings.Wiki(true, false));
        assertEquals(AgentSettings.NONE, settings.get(agent));
        assertInstanceOf(AgentSettingsStore.Write.Conflict.class, settings.put(agent, on, OptionalLong.of(3)));
        assertEquals(1, ((AgentSettingsStore.Write.Stored) settings.put(agent, on, OptionalLong.of(0))).stored()
                .version());
        assertEquals(new AgentSettingsStore.Write.Conflict(1), settings.put(agent, on, OptionalLong.of(0)));
        assertEquals(on, settings.get(agent));

        // 16 writers without a version: every write gets its own version, none is lost.
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<Future<Long>> writes = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                writes.add(pool.submit(() -> settings.put(agent, AgentSettings.NONE)));
            }
            List<Long> versions = new ArrayList<>();
            for (Future<Long> write : writes) {
                versions.add(write.get());
            }
            assertEquals(LongStream.rangeClosed(2, 65).boxed().toList(), versions.stream().sorted().toList());

            // 16 writers with the same expected version: exactly one wins, the others get 409's conflict.
            List<Future<AgentSettingsStore.Write>> guarded = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                guarded.add(pool.submit(() -> settings.put(agent, on, OptionalLong.of(65))));
            }
            int stored = 0;
            for (Future<AgentSettingsStore.Write> write : guarded) {
                if (write.get() instanceof AgentSettingsStore.Write.Stored) {
                    stored++;
                } else {
                    assertEquals(new AgentSettingsStore.Write.Conflict(66), write.get());
                }
            }
            assertEquals(1, stored);
            assertEquals(66, settings.find(agent).orElseThrow().version());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void handshakeBindingsBelongToTheirOwnerOnTheirReplicaUntilEnded() throws Exception {
        HandshakeSessions sessions = context.getBean(HandshakeSessions.class);
        Database database = context.getBean(Database.class);
        HandshakeSessions otherReplica = new PostgresHandshakeSessions(database,
                context.getBean(dev.gatehouse.gateway.mcp.McpProperties.class));
        sessions.bind("h1", "session:a");
        assertTrue(sessions.ownedBy("h1", "session:a"));
        assertFalse(sessions.ownedBy("h1", "session:b"));
        assertFalse(otherReplica.ownedBy("h1", "session:a"), "another replica's SDK does not hold it");
        assertFalse(sessions.ownedBy("unknown", "session:a"));
        sessions.bind("h2", "session:a");
        sessions.bind("h3", "session:c");
        assertEquals(2, otherReplica.endAllOf("session:a"), "revocation ends them on every replica");
        assertFalse(sessions.ownedBy("h2", "session:a"));
        assertTrue(sessions.ownedBy("h3", "session:c"));
        sessions.unbind("h3");
        assertFalse(sessions.ownedBy("h3", "session:c"));
        sessions.bind("h4", "session:d");
        olderBy(Duration.ofMinutes(59), BINDING_OLDER, "h4");
        assertTrue(sessions.ownedBy("h4", "session:d"), "idle 59 minutes of the hour: still owned, and used now");
        olderBy(Duration.ofMinutes(59), BINDING_OLDER, "h4");
        assertTrue(sessions.ownedBy("h4", "session:d"), "each use starts the idle hour again");
        olderBy(Duration.ofHours(1), BINDING_OLDER, "h4");
        assertFalse(sessions.ownedBy("h4", "session:d"), "idle for the whole timeout");
    }

    /**
     * Runs {@code sql}, an UPDATE that moves one row's times back: each {@code ?} but the last is {@code by} in
     * milliseconds, the last is the row's key. One row must change.
     */
    private static void olderBy(Duration by, String sql, String key) throws Exception {
        try (Connection connection = raw().getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            int parameters = statement.getParameterMetaData().getParameterCount();
            for (int i = 1; i < parameters; i++) {
                statement.setLong(i, by.toMillis());
            }
            statement.setString(parameters, key);
            assertEquals(1, statement.executeUpdate(), sql);
        }
    }

    @Test
    void migrationsAreIdempotentAndANewerSchemaRefusesToStart() throws Exception {
        String url;
        try (Connection connection = raw().getConnection()) {
            url = connection.getMetaData().getURL();
        }
        Map<String, Object> sameDatabase = Map.of("gatehouse.database.embedded", false, "gatehouse.database.url", url,
                "gatehouse.database.user", "postgres", "micronaut.server.port", "-1");
        try (ApplicationContext again = ApplicationContext.run(sameDatabase, "test")) {
            assertTrue(again.getBean(Database.class).ping(), "a second start on the migrated schema");
        }
        try (Connection connection = raw().getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO flyway_schema_history (installed_rank, version, description, type, script,"
                    + " checksum, installed_by, execution_time, success) VALUES (99, '"
                    + (SchemaVersionCheck.SCHEMA_VERSION + 1) + "', 'from the future', 'SQL', 'V9__future.sql', 0,"
                    + " 'test', 1, true)");
        }
        Exception refused = assertThrows(Exception.class, () -> ApplicationContext.run(sameDatabase, "test"));
        String messages = "";
        for (Throwable t = refused; t != null; t = t.getCause()) {
            messages += t.getMessage() + "\n";
        }
        assertTrue(messages.contains("newer than this gateway's " + SchemaVersionCheck.SCHEMA_VERSION), messages);
    }
}
