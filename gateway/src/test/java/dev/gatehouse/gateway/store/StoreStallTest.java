package dev.gatehouse.gateway.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariDataSource;
import dev.gatehouse.gateway.mcp.HandshakeSessions;
import dev.gatehouse.gateway.support.FrozenPostgres;
import io.micronaut.context.ApplicationContext;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.runtime.server.EmbeddedServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.SQLTimeoutException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * A stalled PostgreSQL (the whole embedded cluster stopped with SIGSTOP: postmaster and every backend) never holds a
 * store call past the deadline: a statement on a connection that was just in use (the case whose socket read used
 * to wait for the whole stall), a handshake ownership check, the readiness probe and an admin listing all answer
 * while the cluster is still stopped, as unavailable and never as a denial; after SIGCONT the same calls work again
 * without a restart (the pool replaced the connections the stall broke). The test resumes the cluster only after
 * every answer arrived, so a call that waited for the resume is caught without timing anything; a watchdog resumes it
 * after {@value #WATCHDOG_SECONDS} s so a hang cannot outlive the test. The driver's own socket timeout is set far
 * beyond the watchdog here, so only the store's deadline can answer in time.
 */
class StoreStallTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String ADMIN = "admin-stall-credential";
    private static final long WATCHDOG_SECONDS = 30;

    @Test
    void everyStoreCallAnswersWhileTheClusterIsStoppedAndWorksAgainAfter() throws Exception {
        Path dataDir = Path.of("target/test-postgres-stall-" + System.nanoTime()).toAbsolutePath();
        try (EmbeddedServer server = ApplicationContext.run(EmbeddedServer.class, Map.of(
                "micronaut.server.port", "-1",
                "gatehouse.admin.credential", ADMIN,
                "gatehouse.database.data-dir", dataDir.toString(),
                "datasources.default.data-source-properties.socketTimeout", "3600",
                "gatehouse.policy.bundle-path", System.getProperty("gatehouse.bundle.dir", "../target/bundle")
                        + "/bundle.tar.gz",
                "gatehouse.audit.path", "target/test-decisions/stall.jsonl"), "test")) {
            Database database = server.getApplicationContext().getBean(Database.class);
            HandshakeSessions handshakes = server.getApplicationContext().getBean(HandshakeSessions.class);
            handshakes.bind("mcp-stall-1", "owner-1");
            Map<String, Callable<Object>> kinds = kinds(server, database, handshakes);
            for (Map.Entry<String, Callable<Object>> kind : kinds.entrySet()) {
                assertEquals("ok", kind.getValue().call(), kind.getKey() + " before the stall");
            }

            Map<String, Object> answers = new LinkedHashMap<>();
            Map<String, Long> millis = new LinkedHashMap<>();
            AtomicBoolean watchdogResumed = new AtomicBoolean();
            ExecutorService callers = Executors.newFixedThreadPool(kinds.size());
            ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor();
            try (FrozenPostgres frozen = FrozenPostgres.freeze(dataDir)) {
                watchdog.schedule(() -> {
                    watchdogResumed.set(true);
                    frozen.close();
                }, WATCHDOG_SECONDS, TimeUnit.SECONDS);
                // Each kind twice: the first finds a connection that was just in use, the second a fresh wait.
                for (int round = 0; round < 2; round++) {
                    Map<String, Future<Object>> pending = new LinkedHashMap<>();
                    for (Map.Entry<String, Callable<Object>> kind : kinds.entrySet()) {
                        pending.put(kind.getKey(),
                                callers.submit(timed(kind.getValue(), millis, kind.getKey() + round)));
                    }
                    for (Map.Entry<String, Future<Object>> answer : pending.entrySet()) {
                        answers.put(answer.getKey() + round, answer.getValue().get(2 * WATCHDOG_SECONDS,
                                TimeUnit.SECONDS));
                    }
                }
                assertFalse(watchdogResumed.get(), "a store call waited for the cluster to resume: " + millis);
            } finally {
                watchdog.shutdownNow();
                callers.shutdownNow();
            }
            System.out.println("store calls with the cluster stopped, ms: " + millis);
            answers.forEach((kind, answer) -> assertEquals("unavailable", answer, kind + " while stopped"));

            // Resumed: every kind works again in this same process once the store answers again.
            for (Map.Entry<String, Callable<Object>> kind : kinds.entrySet()) {
                assertEquals("ok", eventually(kind.getValue()), kind.getKey() + " after the resume");
            }
        }
    }

    /**
     * Each kind of store use, answering {@code "ok"} when served and {@code "unavailable"} when the store did not
     * answer; anything else (a denial, a 404, another status) is returned as it is and fails the test.
     */
    private static Map<String, Callable<Object>> kinds(EmbeddedServer server, Database database,
            HandshakeSessions handshakes) {
        Map<String, Callable<Object>> kinds = new LinkedHashMap<>();
        kinds.put("statement", () -> unavailableOr(() -> database.one("SELECT count(*) FROM handshake_session",
                statement -> {
                }, row -> row.getLong(1)).map(count -> "ok").orElse("no row")));
        kinds.put("handshake-ownership", () -> unavailableOr(() -> handshakes.ownedBy("mcp-stall-1", "owner-1")
                ? "ok" : "not owned"));
        kinds.put("readiness", () -> {
            HttpResponse<String> ready = get(server, "/health/readiness", false);
            String store = JSON.readTree(ready.body()).path("store").path("status").asText();
            if (ready.statusCode() == 200 && store.equals("UP")) {
                return "ok";
            }
            return ready.statusCode() == 503 && store.equals("DOWN") ? "unavailable" : ready.statusCode() + " " + store;
        });
        kinds.put("admin-sessions", () -> {
            HttpResponse<String> listed = get(server, "/admin/sessions", true);
            if (listed.statusCode() == 200) {
                return "ok";
            }
            boolean unavailable = listed.statusCode() == 503 && listed.headers().firstValue("Retry-After").isPresent()
                    && listed.body().contains("unavailable");
            return unavailable ? "unavailable" : listed.statusCode() + " " + listed.body();
        });
        return kinds;
    }

    private static Object unavailableOr(Callable<Object> call) throws Exception {
        try {
            return call.call();
        } catch (StoreUnavailableException e) {
            return "unavailable";
        }
    }

    private static Callable<Object> timed(Callable<Object> call, Map<String, Long> millis, String name) {
        return () -> {
            long start = System.nanoTime();
            try {
                return call.call();
            } finally {
                synchronized (millis) {
                    millis.put(name, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
                }
            }
        };
    }

    /** The call's answer once it is "ok", or its last answer after many tries (the pool refills in the background). */
    private static Object eventually(Callable<Object> call) throws Exception {
        Object last = null;
        for (int attempt = 0; attempt < 300; attempt++) {
            last = call.call();
            if ("ok".equals(last)) {
                return last;
            }
            Thread.sleep(100);
        }
        return last;
    }

    private static HttpResponse<String> get(EmbeddedServer server, String path, boolean admin) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getPort() + path));
        if (admin) {
            request.header("Authorization", "Bearer " + ADMIN);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theStoreCallsOfOneRequestShareOneDeadlineAndACallWithNoTimeLeftRunsNothing() throws Exception {
        long[] now = {0}; // the clock the deadlines are measured on, moved by the test
        try (ApplicationContext context = ApplicationContext.run(Map.of("micronaut.server.port", "-1",
                "gatehouse.policy.bundle-path", "../target/bundle/bundle.tar.gz",
                "gatehouse.audit.path", "target/test-decisions/stall-clock.jsonl"), "test")) {
            HikariDataSource pool = (HikariDataSource) DelegatingDataSource.unwrapDataSource(
                    context.getBean(DataSource.class));
            Database database = new Database(pool, Duration.ofSeconds(2), () -> now[0]);
            String insert = "INSERT INTO handshake_session (mcp_session_id, owner, replica_id, last_used)"
                    + " VALUES (?, 'o', 'r', now())";
            try (Database.Budget request = database.requestBudget()) {
                assertEquals(1, database.update(insert, statement -> statement.setString(1, "first")));
                now[0] += Duration.ofMillis(1_900).toNanos(); // the first lookup took 1.9 s
                StoreUnavailableException refused = assertThrows(StoreUnavailableException.class,
                        () -> database.update(insert, statement -> statement.setString(1, "second")));
                assertInstanceOf(SQLTimeoutException.class, rootCause(refused));
                try (Database.Budget nested = database.requestBudget()) {
                    assertFalse(database.ping(), "a nested budget adds no time");
                }
                assertThrows(StoreUnavailableException.class,
                        () -> database.update(insert, statement -> statement.setString(1, "third")));
            }
            assertTrue(database.ping(), "outside a request a call gets the whole deadline");
            assertEquals(List.of("first"), database.query("SELECT mcp_session_id FROM handshake_session"
                    + " WHERE mcp_session_id IN ('first', 'second', 'third')", statement -> {
                    }, row -> row.getString(1)), "a call without time left never ran its statement");
        }
    }

    private static Throwable rootCause(Throwable failure) {
        Throwable t = failure;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
