package dev.gatehouse.gateway.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Readiness follows the shared store: a gateway on its own PostgreSQL is ready, and stops being ready (503, store
 * DOWN) the moment that PostgreSQL is gone, while liveness stays 200 (a restart would not bring the database back).
 */
class ReadinessTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static HttpResponse<String> get(EmbeddedServer server, String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.getPort() + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void notReadyWithTheDatabaseDown() throws Exception {
        Path dataDir = Path.of("target/test-postgres-readiness-" + System.nanoTime());
        try (EmbeddedServer server = ApplicationContext.run(EmbeddedServer.class, Map.of(
                "micronaut.server.port", "-1",
                "gatehouse.database.data-dir", dataDir.toString(),
                "gatehouse.policy.bundle-path", System.getProperty("gatehouse.bundle.dir", "../target/bundle")
                        + "/bundle.tar.gz",
                "gatehouse.audit.path", "target/test-decisions/readiness.jsonl"), "test")) {
            HttpResponse<String> ready = get(server, "/health/readiness");
            assertEquals(200, ready.statusCode(), ready.body());
            assertEquals("UP", JSON.readTree(ready.body()).path("store").path("status").asText());

            EmbeddedPostgresServer.start(dataDir, 0).close(); // this context's own server: stop it

            HttpResponse<String> down = get(server, "/health/readiness");
            assertEquals(503, down.statusCode(), down.body());
            JsonNode body = JSON.readTree(down.body());
            assertEquals("DOWN", body.path("status").asText());
            assertEquals("DOWN", body.path("store").path("status").asText());
            assertEquals("store_unavailable", body.path("store").path("fault").path("code").asText());
            assertEquals(200, get(server, "/health/liveness").statusCode(), "alive: a restart would not help");
        }
    }
}
