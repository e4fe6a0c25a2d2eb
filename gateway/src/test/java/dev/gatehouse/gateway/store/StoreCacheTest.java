package dev.gatehouse.gateway.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import dev.gatehouse.gateway.auth.AgentSession;
import dev.gatehouse.gateway.auth.SessionProperties;
import dev.gatehouse.gateway.auth.SessionStore;
import dev.gatehouse.gateway.auth.SessionTokens;
import dev.gatehouse.gateway.context.AgentDirectory;
import dev.gatehouse.gateway.context.AgentKey;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.AgentSettingsStore;
import dev.gatehouse.gateway.context.OutsideAgentRegistration;
import io.micronaut.context.ApplicationContext;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The lookup caches of two replicas on one real PostgreSQL: replica A is the application context's stores, replica
 * B a second set of stores with their own {@link StoreChanges} listener and a clock the test moves by hand, so
 * "within the bound" is shown by moving B's clock, never by timing. A change made with triggers disabled
 * ({@code session_replication_role = replica}) stands for a lost notification.
 */
class StoreCacheTest {

    private static final long TTL = TimeUnit.SECONDS.toNanos(1);

    private static ApplicationContext context;
    private static DataSource raw;

    private final AtomicLong clock = new AtomicLong(TimeUnit.HOURS.toNanos(1));
    private StoreChanges changesB;
    private SessionStore sessionsB;
    private AgentSettingsStore settingsB;
    private AgentDirectory directoryB;

    @BeforeAll
    static void start() {
        context = ApplicationContext.run(Map.of("micronaut.server.port", "-1"), "test");
        raw = io.micronaut.data.connection.jdbc.advice.DelegatingDataSource.unwrapDataSource(
                context.getBean(DataSource.class));
    }

    @AfterAll
    static void stop() {
        context.close();
    }

    @BeforeEach
    void replicaB() throws InterruptedException {
        changesB = new StoreChanges(raw, TTL, clock::get);
        Database database = context.getBean(Database.class);
        sessionsB = new PostgresSessionStore(database, context.getBean(SessionProperties.class), changesB);
        settingsB = new PostgresAgentSettingsStore(database, changesB);
        directoryB = new StoredAgentDirectory(settingsB, database, changesB);
        await("B's listener is connected", changesB::usable);
    }

    @AfterEach
    void stopB() {
        changesB.close();
    }

    @Test
    void aRevocationOnReplicaAIsRefusedByReplicaBAtTheNextCallAfterTheNotification() throws Exception {
        String token = newSession(context.getBean(SessionStore.class));
        assertEquals(Optional.of("Agent one"), sessionsB.findByToken(token).orElseThrow().agentName());
        withoutTriggers("UPDATE agent_session SET agent_name = 'renamed' WHERE token_sha256 = '"
                + SessionTokens.hash(token) + "'");
        assertEquals(Optional.of("Agent one"), sessionsB.findByToken(token).orElseThrow().agentName(),
                "B answers from its cache (the rename sent no notification)");

        String id = sessionsB.findByToken(token).orElseThrow().sessionId();
        assertTrue(context.getBean(SessionStore.class).revoke(id));
        // Awaited by its effect, not by a notification count (another notification once satisfied the count first):
        // B's clock never moves here, so only the revocation's notification can empty its cache.
        await("B refuses the revoked session, its clock unmoved", () -> sessionsB.findByToken(token).isEmpty());
    }

    @Test
    void aSettingsChangeOnReplicaAAppliesOnReplicaBAtTheNextCallAfterTheNotification() throws Exception {
        AgentSettingsStore settingsA = context.getBean(AgentSettingsStore.class);
        String agent = "agent-" + SessionTokens.newId();
        assertEquals(AgentSettings.NONE, settingsB.get(agent), "never set: cached as none");
        // Each change awaited by its effect on B, whose clock never moves: only a notification can refresh it.
        settingsA.put(agent, writer(true));
        await("B answers the first write", () -> writer(true).equals(settingsB.get(agent)));
        settingsA.put(agent, writer(false));
        await("B answers the second write", () -> writer(false).equals(settingsB.get(agent)));
    }

    /** The registration's settings go with it (docs/domain.md §1), on replica B too. */
    @Test
    void aRegistrationRemovedOnReplicaAIsGoneOnReplicaBAfterTheNotification() throws Exception {
        AgentDirectory directoryA = context.getBean(AgentDirectory.class);
        String subject = "s-" + SessionTokens.newId();
        AgentSettings reader = new AgentSettings(false, new AgentSettings.Project(false, Optional.empty()),
                new AgentSettings.Wiki(true, false));
        directoryA.register(new OutsideAgentRegistration("https://issuer.test", subject, "oa-one",
                Optional.empty()), reader, java.util.OptionalLong.empty());
        assertEquals("oa-one", directoryB.registration("https://issuer.test", subject).orElseThrow()
                .logicalAgentId());
        assertEquals(reader, directoryB.settings(AgentKey.outside("oa-one")));
        assertEquals(reader, directoryA.unregister("https://issuer.test", subject).orElseThrow().settings());
        // Awaited by its effect, not by a count: registering wrote two tables, and the second notification may
        // still be on its way (it once satisfied a count and the assertion ran before the removal's). B's clock
        // never moves here, so only a notification can empty its cache.
        await("B dropped the removed registration",
                () -> directoryB.registration("https://issuer.test", subject).isEmpty());
        await("B dropped the removed settings",
                () -> directoryB.settings(AgentKey.outside("oa-one")).equals(AgentSettings.NONE));
    }

    @Test
    void withoutANotificationAChangeAppliesOnceTheTimeToLiveHasPassed() throws Exception {
        String token = newSession(context.getBean(SessionStore.class));
        String agent = "agent-" + SessionTokens.newId();
        long heard = changesB.notificationsReceived();
        context.getBean(AgentSettingsStore.class).put(agent, writer(true));
        await("B heard the settings", () -> changesB.notificationsReceived() > heard);
        assertTrue(sessionsB.findByToken(token).isPresent());
        assertEquals(writer(true), settingsB.get(agent));

        withoutTriggers("UPDATE agent_session SET revoked_at = now() WHERE token_sha256 = '"
                + SessionTokens.hash(token) + "'");
        withoutTriggers("UPDATE agent_settings SET wiki_write = false, version = version + 1 WHERE agent_id = '"
                + agent + "'");
        clock.addAndGet(TTL - 1);
        assertTrue(sessionsB.findByToken(token).isPresent(), "stale just inside the bound: the bound is what holds");
        assertEquals(writer(true), settingsB.get(agent));
        clock.addAndGet(1);
        assertTrue(sessionsB.findByToken(token).isEmpty(), "refused once the time-to-live has passed");
        assertEquals(writer(false), settingsB.get(agent));
    }

    @Test
    void aLostListenerClearsTheCachesSoMissedNotificationsCannotKeepAnEntry() throws Exception {
        String token = newSession(context.getBean(SessionStore.class));
        assertTrue(sessionsB.findByToken(token).isPresent());
        withoutTriggers("UPDATE agent_session SET revoked_at = now() WHERE token_sha256 = '"
                + SessionTokens.hash(token) + "'");
        assertTrue(sessionsB.findByToken(token).isPresent(), "cached: no notification was sent");

        long resets = changesB.resets();
        int pid = changesB.listenerBackendPid();
        try (Connection connection = raw.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("SELECT pg_terminate_backend(" + pid + ")");
        }
        await("B noticed the loss", () -> changesB.resets() > resets);
        assertTrue(sessionsB.findByToken(token).isEmpty(), "refused after the loss, B's clock unmoved");
        await("B listens again", () -> changesB.usable() && changesB.listenerBackendPid() != pid);
    }

    @Test
    void withoutAListenerEveryLookupAsksPostgres() throws Exception {
        try (HikariDataSource unreachable = new HikariDataSource()) {
            unreachable.setJdbcUrl("jdbc:postgresql://127.0.0.1:1/none");
            unreachable.setConnectionTimeout(250);
            unreachable.setInitializationFailTimeout(-1);
            StoreChanges deaf = new StoreChanges(unreachable, TTL, clock::get);
            try {
                SessionStore sessions = new PostgresSessionStore(context.getBean(Database.class),
                        context.getBean(SessionProperties.class), deaf);
                String token = newSession(sessions);
                assertTrue(sessions.findByToken(token).isPresent());
                withoutTriggers("UPDATE agent_session SET revoked_at = now() WHERE token_sha256 = '"
                        + SessionTokens.hash(token) + "'");
                assertFalse(deaf.usable());
                assertTrue(sessions.findByToken(token).isEmpty(), "no listener: the cache is bypassed");
            } finally {
                deaf.close();
            }
        }
    }

    /**
     * An entry is kept no longer than the session's remaining life, even inside the time-to-live (10 s for this
     * replica, 5 s of life for the session). Nothing waits for the database's clock: a rename without a notification
     * shows whether a lookup was answered by the cache (the old name) or read PostgreSQL (the new name, or nothing
     * once the session has expired there too).
     */
    @Test
    void aCachedSessionIsNeverAnsweredPastItsExpiry() throws Exception {
        StoreChanges patient = new StoreChanges(raw, TimeUnit.SECONDS.toNanos(10), clock::get);
        try {
            await("the listener is connected", patient::usable);
            SessionProperties fiveSeconds = new SessionProperties();
            fiveSeconds.setTtl(Duration.ofSeconds(5));
            SessionStore sessions = new PostgresSessionStore(context.getBean(Database.class), fiveSeconds, patient);
            long heard = patient.notificationsReceived();
            String token = SessionTokens.mint();
            sessions.put(token, new AgentSession(SessionTokens.newId(), "local", "t1", "ps-1", "pi-1", "a1", "demo",
                    Optional.of("Agent one"), "claude"));
            await("the insert's notification was heard", () -> patient.notificationsReceived() > heard);
            assertEquals(Optional.of("Agent one"), sessions.findByToken(token).orElseThrow().agentName());
            withoutTriggers("UPDATE agent_session SET agent_name = 'renamed' WHERE token_sha256 = '"
                    + SessionTokens.hash(token) + "'");
            assertEquals(Optional.of("Agent one"), sessions.findByToken(token).orElseThrow().agentName(),
                    "cached: no notification was sent and the clock has not moved");
            clock.addAndGet(TimeUnit.SECONDS.toNanos(5)); // the session's whole life, half the time-to-live
            assertNotEquals(Optional.of(Optional.of("Agent one")),
                    sessions.findByToken(token).map(AgentSession::agentName),
                    "an entry lives no longer than its session");
        } finally {
            patient.close();
        }
    }

    @Test
    void aRevocationThroughThisReplicaAppliesHereAtOnce() throws InterruptedException {
        String token = newSession(sessionsB);
        String id = sessionsB.findByToken(token).orElseThrow().sessionId();
        assertTrue(sessionsB.revoke(id));
        assertTrue(sessionsB.findByToken(token).isEmpty());
    }

    @Test
    void aTimeToLiveAboveOneSecondIsRefused() {
        DatabaseProperties properties = new DatabaseProperties();
        assertEquals(Duration.ofSeconds(1), properties.getCacheTtl());
        properties.setCacheTtl(Duration.ZERO);
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> properties.setCacheTtl(Duration.ofMillis(1001)));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> properties.setCacheTtl(Duration.ofMillis(-1)));
    }

    /** A new session, stored through {@code sessions}, whose insert notification B has heard (so none is pending). */
    private String newSession(SessionStore sessions) throws InterruptedException {
        long heard = changesB.notificationsReceived();
        String token = SessionTokens.mint();
        sessions.put(token, new AgentSession(SessionTokens.newId(), "local", "t1", "ps-1", "pi-1", "a1", "demo",
                Optional.of("Agent one"), "claude"));
        await("B heard the new session", () -> changesB.notificationsReceived() > heard);
        return token;
    }

    private static AgentSettings writer(boolean write) {
        return new AgentSettings(false, new AgentSettings.Project(true, Optional.of("ps-1")),
                new AgentSettings.Wiki(true, write));
    }

    /** One statement whose triggers do not fire: the change is made, its notification is never sent. */
    private static void withoutTriggers(String sql) throws Exception {
        try (Connection connection = raw.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("SET session_replication_role = replica");
            try {
                assertEquals(1, statement.executeUpdate(sql));
            } finally {
                statement.execute("SET session_replication_role = DEFAULT");
            }
        }
    }

    /** Waits (at most 10 s) for something the listener thread does; fails when it never happens. */
    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 10 s: " + what);
            }
            Thread.sleep(10);
        }
    }
}
