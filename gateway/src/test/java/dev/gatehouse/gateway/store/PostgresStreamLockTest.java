package dev.gatehouse.gateway.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import io.micronaut.context.ApplicationContext;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The notice streams' lock on a real PostgreSQL, with two replicas' lock clients ({@code a}, {@code b}) in one
 * process: one holder at a time, named to the other; no expiry, so a holder that makes no round trip at all (as a
 * frozen process makes none) keeps the streams however often the other tries; the moment the holder's session ends
 * (its process died: the store sees the connection close) the other takes them, and the former holder learns at its
 * next confirmation that it lost them.
 */
class PostgresStreamLockTest {

    private static ApplicationContext context;
    private static HikariDataSource pool;
    private PostgresStreamLock a;
    private PostgresStreamLock b;

    @BeforeAll
    static void start() {
        context = ApplicationContext.run(Map.of("micronaut.server.port", "-1",
                "gatehouse.policy.bundle-path", "../target/bundle/bundle.tar.gz",
                "gatehouse.audit.path", "target/test-decisions/stream-lock.jsonl"), "test");
        pool = (HikariDataSource) DelegatingDataSource.unwrapDataSource(context.getBean(DataSource.class));
    }

    @AfterAll
    static void stop() {
        context.close();
    }

    @BeforeEach
    void replicas() {
        DatabaseProperties properties = context.getBean(DatabaseProperties.class);
        a = new PostgresStreamLock(pool, properties, "a");
        b = new PostgresStreamLock(pool, properties, "b");
    }

    @AfterEach
    void letGo() {
        a.release();
        b.release();
    }

    @Test
    void oneHolderAtATimeNamedToTheOthers() {
        assertEquals(Optional.empty(), b.holder(), "nobody holds the streams yet");
        assertTrue(a.tryTake());
        assertFalse(b.tryTake());
        assertEquals(Optional.of("a"), b.holder());
        assertEquals(Optional.of("a"), a.holder());
        assertTrue(a.tryTake(), "taking again while holding is a confirmation, not a second lock");
        assertTrue(a.confirm());
        assertFalse(b.confirm(), "b never held them");
        a.release();
        assertFalse(a.confirm());
        assertTrue(b.tryTake(), "released: the other takes them at once");
        assertEquals(Optional.of("b"), a.holder());
    }

    @Test
    void aHolderThatMakesNoRoundTripKeepsTheStreamsAsLongAsItsSessionLives() {
        assertTrue(a.tryTake());
        for (int attempt = 0; attempt < 200; attempt++) {
            assertFalse(b.tryTake(), "attempt " + attempt);
        }
        assertTrue(a.confirm(), "no lease ran out while a said nothing");
    }

    @Test
    void whenTheHoldersSessionEndsAnotherTakesOverAndTheFormerHolderKnows() throws Exception {
        assertTrue(a.tryTake());
        int holder = backendOf("a");
        try (Connection connection = pool.getConnection();
                PreparedStatement terminate = connection.prepareStatement("SELECT pg_terminate_backend(?)")) {
            terminate.setInt(1, holder);
            terminate.execute();
        }
        boolean taken = false;
        for (int attempt = 0; attempt < 500 && !taken; attempt++) { // the backend exits right after the signal
            taken = b.tryTake();
        }
        assertTrue(taken, "b takes the streams once a's session is gone");
        assertFalse(a.confirm(), "a learns it lost them");
        assertFalse(a.tryTake(), "and cannot take them back while b holds them");
        assertEquals(Optional.of("b"), a.holder());
    }

    /** The backend process of the lock session of {@code replica}, found by its application_name. */
    private static int backendOf(String replica) throws Exception {
        try (Connection connection = pool.getConnection();
                PreparedStatement find = connection.prepareStatement(
                        "SELECT pid FROM pg_stat_activity WHERE application_name = ?")) {
            find.setString(1, PostgresStreamLock.APPLICATION + replica);
            try (ResultSet row = find.executeQuery()) {
                assertTrue(row.next(), "a lock session named for " + replica);
                return row.getInt(1);
            }
        }
    }
}
