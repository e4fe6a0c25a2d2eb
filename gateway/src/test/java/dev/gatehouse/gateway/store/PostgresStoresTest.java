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
import java.sql.Statement;
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

    private static ApplicationContext context;

    @BeforeAll
    static void start() {
        context = ApplicationContext.run(Map.of("gatehouse.sessions.ttl", "2s",
                "gatehouse.mcp.session-idle-timeout", "2s", "micronaut.server.port", "-1"), "test");
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

    @Test
    void sessionsAreFoundByTokenUntilRevokedOrExpired() throws Exception {
        SessionStore sessions = context.getBean(SessionStore.class);
        String token = SessionTokens.mint();
        String other = SessionTokens.mint();
        String id = SessionTokens.newId();
        sessions.put(token, session(id));
        sessions.put(other, session(SessionTokens.newId()));
        assertEquals("claude", sessions.findByToken(token).orElseThrow().provider());
        assertEquals(Optional.of("Agent one"), sessions.findByToken(token).orElseThrow().agentName());
        assertTrue(sessions.current().stream().anyMatch(l -> l.session().sessionId().equals(id)));
        assertTrue(sessions.revoke(id));
        assertFalse(sessions.revoke(id), "revoked once");
        assertTrue(sessions.findByToken(token).isEmpty());
        assertTrue(sessions.current().stream().noneMatch(l -> l.session().sessionId().equals(id)));
        Thread.sleep(2_200);
        assertTrue(sessions.findByToken(other).isEmpty(), "expired after the 2 s lifetime");
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
        Thread.sleep(2_200);
        assertFalse(sessions.ownedBy("h4", "session:d"), "idle longer than the timeout");
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
