package dev.gatehouse.gateway.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two gateway processes (replicas A and B) on one PostgreSQL, as behind a load balancer: a token minted through A
 * works on B, a revocation on A is refused on B and a settings change on A applies on B once B's cache heard of it
 * (at the next call after the notification; the 1 s bound without one is StoreCacheTest's), 1,500 2026-07-28 calls
 * alternating A and B as fast as eight clients can send them are each served or rate_limited (never an error), and
 * the served ones fit the agent's one read budget, shared by both replicas, not doubled (docs/domain.md §10); a
 * handshake-era session of A is 404 on B and
 * re-initialize on B works; then the database goes down (503 unavailable with Retry-After, /health says why, the
 * gateways stay up) and comes back (calls work again without a restart); and a restarted replica still knows every
 * session. Also the embedded default: a gateway restarted on its own embedded PostgreSQL keeps its sessions.
 */
class ScaleOutIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"scale-out\",\"version\":\"1\"},"
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";
    private static final String WIKI_ON = "{\"wiki\":{\"read\":true,\"write\":false}}";
    private static final String WIKI_OFF = "{\"wiki\":{\"read\":false,\"write\":false}}";
    /**
     * Enough that two budgets would show: one budget serves ≈ 700 of them in the ≈ 30 s they take (the rest wait
     * for a token in vain and are rate_limited), two budgets would serve ≈ twice that.
     */
    private static final int CALLS = 1_500;

    @Test
    void twoReplicasShareSessionsSettingsAndBindings(@TempDir Path work) throws Exception {
        // Not cleaned on close: the restart below must find the data again (a clean server deletes its directory).
        EmbeddedPostgres postgres = startPostgres(work.resolve("pg"), 0, false);
        int pgPort = postgres.getPort();
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
                Statement create = connection.createStatement()) {
            create.execute("CREATE DATABASE gatehouse");
        }
        Path password = work.resolve("db-password");
        Files.writeString(password, "unused-with-trust-auth\n");
        Map<String, String> database = Map.of(
                "GATEHOUSE_DATABASE_URL", "jdbc:postgresql://127.0.0.1:" + pgPort + "/gatehouse",
                "GATEHOUSE_DATABASE_USER", "postgres",
                "GATEHOUSE_DATABASE_PASSWORD_FILE", password.toString());
        Files.createDirectories(work.resolve("a"));
        Files.createDirectories(work.resolve("b"));
        try (GatewayStack a = GatewayStack.start(work.resolve("a"), database);
                GatewayStack b = GatewayStack.replicaOf(a, work.resolve("b"), database)) {
            a.settings("a1", WIKI_ON);
            Map<String, String> session = a.attachSession("a1", "t1", "pi-1");
            String token = session.get("token");

            // Minted on A, works on B.
            assertAllowed(call(b, token, 1));

            // A settings change on A applies on B once B heard of it, and back.
            a.settings("a1", WIKI_OFF);
            assertDenied(eventually(() -> call(b, token, 2), ScaleOutIT::denied));
            a.settings("a1", WIKI_ON);
            assertAllowed(eventually(() -> call(b, token, 3), ScaleOutIT::allowed));

            // Optimistic versions: a stale If-Match through B is 409, the current one is stored.
            HttpResponse<String> current = b.admin("GET", "/admin/agents/a1", "");
            assertEquals(200, current.statusCode(), current.body());
            String etag = current.headers().firstValue("ETag").orElseThrow();
            long version = JSON.readTree(current.body()).path("version").asLong();
            assertEquals(200, put(a, "a1", WIKI_ON, etag).statusCode());
            HttpResponse<String> stale = put(b, "a1", WIKI_OFF, etag);
            assertEquals(409, stale.statusCode(), stale.body());
            assertEquals(version + 1, JSON.readTree(stale.body()).path("currentVersion").asLong());
            assertAllowed(call(a, token, 4));

            // 1,500 calls alternating A and B, none failing; beyond the agent's read budget they are rate_limited,
            // and both replicas together serve no more than the one budget: burst, refill over the run, and what
            // each replica may take before it syncs (sync-tokens 0.1 of the burst).
            Load load = alternate(a, b, token);
            JsonNode read = JSON.readTree(dev.gatehouse.gateway.policy.TestBundle.policies()
                    .resolve("gatehouse/quotas/data.json").toFile()).path("budgets").path("thread").path("read");
            long burst = read.path("burst").asLong();
            long budget = burst + 2 * (long) Math.floor(burst * 0.1)
                    + (long) Math.ceil(read.path("ratePerMinute").asLong() * (load.millis / 60_000.0 + 1 / 60.0));
            System.out.printf("scale-out: %d calls alternating A/B in %d ms, %d served, %d rate_limited (budget of"
                    + " both replicas together %d), %d errors, p50 %.2f ms%n", CALLS, load.millis, load.served,
                    load.rateLimited, budget, load.errors, load.p50Millis);
            assertEquals(0, load.errors, load.firstError);
            assertEquals(CALLS, load.served + load.rateLimited);
            assertTrue(load.served >= burst && load.served <= budget, "served " + load.served + ", budget " + budget);

            // GET /admin/sessions lists it without any token or hash.
            HttpResponse<String> listed = b.admin("GET", "/admin/sessions", "");
            assertEquals(200, listed.statusCode());
            assertTrue(listed.body().contains(session.get("sessionId")), listed.body());
            assertFalse(listed.body().contains(token), "no token in the listing");
            assertFalse(listed.body().contains(dev.gatehouse.gateway.auth.SessionTokens.hash(token)), "no hash");
            assertTrue(listed.body().contains("\"provider\":\"codex\""), listed.body());

            // Handshake era: a session of A is 404 on B; re-initialize on B works.
            HttpResponse<String> initA = initialize(a, token);
            String sessionOfA = initA.headers().firstValue("Mcp-Session-Id").orElseThrow();
            assertEquals(200, handshakeList(a, token, sessionOfA).statusCode());
            assertEquals(404, handshakeList(b, token, sessionOfA).statusCode());
            HttpResponse<String> initB = initialize(b, token);
            assertEquals(200, initB.statusCode(), initB.body());
            String sessionOfB = initB.headers().firstValue("Mcp-Session-Id").orElseThrow();
            assertNotEquals(sessionOfA, sessionOfB);
            assertEquals(200, handshakeList(b, token, sessionOfB).statusCode());

            // Revoked on A: refused on B once B heard of it, in both eras.
            assertEquals(204, a.admin("DELETE", "/admin/sessions/" + session.get("sessionId"), "").statusCode());
            assertEquals(401, eventually(() -> call(b, token, 5), r -> r.statusCode() == 401).statusCode());
            assertEquals(401, handshakeList(b, token, sessionOfB).statusCode());

            // The database goes down: unavailable (503, Retry-After), not a denial; /health says why; both stay up.
            String second = a.attach("a1", "t1", "pi-1");
            assertAllowed(call(b, second, 6));
            postgres.close();
            HttpResponse<String> down = call(a, second, 7);
            assertEquals(503, down.statusCode(), down.body());
            assertEquals("1", down.headers().firstValue("Retry-After").orElse(""));
            assertTrue(down.body().contains("unavailable"), down.body());
            HttpResponse<String> health = get(b, "/health");
            assertEquals(503, health.statusCode());
            assertEquals("DOWN", JSON.readTree(health.body()).path("store").path("status").asText(), health.body());
            assertEquals(503, a.admin("PUT", "/admin/agents/a1", WIKI_OFF).statusCode());

            // It comes back on the same port: both replicas recover without a restart, nothing was half-written.
            postgres = startPostgres(work.resolve("pg"), pgPort, false);
            assertAllowed(awaitRecovery(a, second));
            assertAllowed(awaitRecovery(b, second));
            assertEquals(200, get(a, "/health").statusCode());

            // A restarted replica still knows the session.
            a.restartGateway();
            assertAllowed(call(a, second, 8));
        } finally {
            postgres.close();
        }
    }

    @Test
    void theEmbeddedDefaultKeepsSessionsAcrossARestart(@TempDir Path work) throws Exception {
        try (GatewayStack stack = GatewayStack.start(work)) {
            stack.settings("a1", WIKI_ON);
            String token = stack.attach("a1", "t1", "pi-1");
            assertAllowed(call(stack, token, 1));
            stack.restartGateway();
            assertAllowed(call(stack, token, 2));
            assertEquals(1L, JSON.readTree(stack.admin("GET", "/admin/agents/a1", "").body()).path("version")
                    .asLong());
            assertTrue(Files.isDirectory(work.resolve(".gatehouse-data/postgres")), "data under the data directory");
            assertStoppedInOrder(Files.readAllLines(work.resolve("gateway-before-restart.log")));
        }
    }

    /**
     * The stop (SIGTERM) closed the context before the embedded PostgreSQL: it stopped after the pool had closed,
     * and nothing after the stop began is a WARN or ERROR. Both used to stop at once, and the store listener, the pool
     * and the notice consumers logged their database gone (a new user's trial, and another's).
     */
    private static void assertStoppedInOrder(List<String> log) {
        int stopping = indexOf(log, "Embedded Application shutting down");
        int poolClosed = indexOf(log, "HikariPool-1 - Shutdown completed");
        int databaseStopped = indexOf(log, "shut down postmaster"); // logged by the thread that stopped it
        assertTrue(stopping >= 0 && poolClosed > stopping && databaseStopped > poolClosed,
                String.join("\n", log.subList(Math.max(0, stopping), log.size())));
        List<String> warnings = log.subList(stopping, log.size()).stream()
                .filter(line -> line.contains("\"level\":\"WARN\"") || line.contains("\"level\":\"ERROR\""))
                .toList();
        assertEquals(List.of(), warnings);
    }

    private static int indexOf(List<String> log, String text) {
        for (int i = 0; i < log.size(); i++) {
            if (log.get(i).contains(text)) {
                return i;
            }
        }
        return -1;
    }

    private static EmbeddedPostgres startPostgres(Path dir, int port, boolean clean) throws IOException {
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder().setDataDirectory(dir)
                .setCleanDataDirectory(clean).setServerConfig("listen_addresses", "127.0.0.1");
        if (port > 0) {
            builder.setPort(port);
        }
        return builder.start();
    }

    private static HttpResponse<String> awaitRecovery(GatewayStack stack, String token) throws Exception {
        Instant deadline = Instant.now().plusSeconds(30);
        HttpResponse<String> last = null;
        int id = 100;
        while (Instant.now().isBefore(deadline)) {
            last = call(stack, token, id++);
            if (last.statusCode() == 200) {
                return last;
            }
            assertEquals(503, last.statusCode(), last.body());
            Thread.sleep(250);
        }
        return last;
    }

    private record Load(long millis, int served, int rateLimited, int errors, String firstError, double p50Millis) {
    }

    private static Load alternate(GatewayStack a, GatewayStack b, String token) throws Exception {
        AtomicInteger errors = new AtomicInteger();
        AtomicInteger served = new AtomicInteger();
        AtomicInteger rateLimited = new AtomicInteger();
        AtomicLong next = new AtomicLong();
        List<String> firstError = java.util.Collections.synchronizedList(new ArrayList<>());
        long[] latencies = new long[CALLS];
        ExecutorService pool = Executors.newFixedThreadPool(8);
        long start = System.nanoTime();
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int w = 0; w < 8; w++) {
                workers.add(pool.submit(() -> {
                    for (long i = next.getAndIncrement(); i < CALLS; i = next.getAndIncrement()) {
                        long t0 = System.nanoTime();
                        try {
                            HttpResponse<String> response = call(i % 2 == 0 ? a : b, token, 1000 + i);
                            if (allowed(response)) {
                                served.incrementAndGet();
                            } else if (rateLimited(response)) {
                                rateLimited.incrementAndGet();
                            } else {
                                errors.incrementAndGet();
                                firstError.add(response.statusCode() + " " + response.body());
                            }
                        } catch (Exception e) {
                            errors.incrementAndGet();
                            firstError.add(e.toString());
                        }
                        latencies[(int) i] = System.nanoTime() - t0;
                    }
                    return null;
                }));
            }
            for (Future<?> worker : workers) {
                worker.get();
            }
        } finally {
            pool.shutdownNow();
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        java.util.Arrays.sort(latencies);
        return new Load(millis, served.get(), rateLimited.get(), errors.get(), firstError.isEmpty() ? "" : firstError.get(0),
                latencies[CALLS / 2] / 1e6);
    }

    /** A 2026-07-28 tools/call of wiki_read on the caller's seeded page, as a plain JDK client sends it. */
    static HttpResponse<String> call(GatewayStack stack, String token, long id) throws IOException,
            InterruptedException {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{"
                + "\"name\":\"wiki_read\",\"arguments\":{\"path\":\"page.md\"}," + META + "}}";
        return HTTP.send(HttpRequest.newBuilder(URI.create(stack.mcpUrl()))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .header("Mcp-Method", "tools/call")
                .header("Mcp-Name", "wiki_read")
                .header("MCP-Protocol-Version", "2026-07-28")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> initialize(GatewayStack stack, String token) throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                + "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"scale-out\",\"version\":\"1\"}}}";
        HttpResponse<String> response = handshake(stack, token, body, null);
        assertEquals(200, response.statusCode(), response.body());
        assertNotNull(response.headers().firstValue("Mcp-Session-Id").orElse(null));
        return response;
    }

    private static HttpResponse<String> handshakeList(GatewayStack stack, String token, String sessionId)
            throws Exception {
        return handshake(stack, token, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}", sessionId);
    }

    private static HttpResponse<String> handshake(GatewayStack stack, String token, String body, String sessionId)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(stack.mcpUrl()))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (sessionId != null) {
            request.header("Mcp-Session-Id", sessionId).header("MCP-Protocol-Version", "2025-11-25");
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> put(GatewayStack stack, String agent, String json, String ifMatch)
            throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(stack.baseUrl() + "/admin/agents/" + agent))
                .PUT(HttpRequest.BodyPublishers.ofString(json))
                .header("Authorization", "Bearer " + stack.adminCredential)
                .header("Content-Type", "application/json")
                .header("If-Match", ifMatch).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(GatewayStack stack, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(stack.baseUrl() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A tool error {@code rate_limited}: over the agent's quota or its share, retryable, nothing was called. */
    private static boolean rateLimited(HttpResponse<String> response) throws IOException {
        JsonNode content = firstJson(response.body()).path("result").path("structuredContent");
        return response.statusCode() == 200 && content.path("kind").asText().equals("rate_limited")
                && content.path("retryable").asBoolean(false) && content.path("retryAfterMs").asLong() >= 1;
    }

    private static boolean allowed(HttpResponse<String> response) throws IOException {
        if (response.statusCode() != 200) {
            return false;
        }
        JsonNode result = firstJson(response.body()).path("result");
        return !result.isMissingNode() && !result.path("isError").asBoolean(true);
    }

    private static void assertAllowed(HttpResponse<String> response) throws IOException {
        assertTrue(allowed(response), response.statusCode() + " " + response.body());
    }

    private static boolean denied(HttpResponse<String> response) throws IOException {
        return response.statusCode() == 200 && "denied".equals(firstJson(response.body()).path("result")
                .path("structuredContent").path("kind").asText());
    }

    /** A call that may have to hear about a change first. */
    @FunctionalInterface
    private interface Call {
        HttpResponse<String> send() throws Exception;
    }

    /** A check of an answer. */
    @FunctionalInterface
    private interface Check {
        boolean test(HttpResponse<String> response) throws IOException;
    }

    /**
     * The first answer that passes {@code check}, repeating the call for up to 5 s (a change notification normally
     * arrives within milliseconds; the rest is for a loaded machine); the last answer when none did.
     */
    private static HttpResponse<String> eventually(Call call, Check check) throws Exception {
        Instant deadline = Instant.now().plusSeconds(5);
        HttpResponse<String> last = call.send();
        while (!check.test(last) && Instant.now().isBefore(deadline)) {
            Thread.sleep(20);
            last = call.send();
        }
        return last;
    }

    private static void assertDenied(HttpResponse<String> response) throws IOException {
        assertEquals(200, response.statusCode(), response.body());
        JsonNode result = firstJson(response.body()).path("result");
        assertTrue(result.path("isError").asBoolean(), response.body());
        assertEquals("denied", result.path("structuredContent").path("kind").asText(), response.body());
    }

    /** The first JSON object in a body that may be plain JSON or one SSE event. */
    private static JsonNode firstJson(String body) throws IOException {
        int start = body.indexOf('{');
        return JSON.readTree(body.substring(start, body.lastIndexOf('}') + 1));
    }
}
