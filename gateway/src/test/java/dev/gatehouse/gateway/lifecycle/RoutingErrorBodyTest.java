package dev.gatehouse.gateway.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micronaut.context.annotation.Property;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The errors Micronaut answers itself (no route, a method or a Content-Type the route does not take) have the same
 * small body as the container's, {@code {"error", "message"}}, not Micronaut's {@code _links}/{@code _embedded} form
 * (a new user's trial found the README's promise broken on the admin API).
 */
@MicronautTest(transactional = false)
@Property(name = "micronaut.server.port", value = "-1")
@Property(name = "gatehouse.policy.bundle-path", value = "../target/bundle/bundle.tar.gz")
@Property(name = "gatehouse.admin.credential", value = "routing-test-credential")
@Property(name = "gatehouse.audit.path", value = "target/test-decisions/routing.jsonl")
class RoutingErrorBodyTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Inject
    EmbeddedServer server;

    @Test
    void routingErrorsAreSmallJson() throws Exception {
        record Case(String method, String path, String contentType, int status, String error) {
        }
        for (Case c : List.of(new Case("GET", "/admin/nonexistent", "application/json", 404, "not_found"),
                new Case("GET", "/no/such/path", "application/json", 404, "not_found"),
                new Case("PATCH", "/admin/agents/a1", "application/json", 405, "http_405"),
                new Case("DELETE", "/admin/agents/a1", "application/json", 405, "http_405"),
                // The admin API's own check answers a body not sent as JSON, before Micronaut, in the same form.
                new Case("PUT", "/admin/agents/a1", "text/plain", 415, "unsupported_media_type"),
                new Case("POST", "/admin/sessions", "application/xml", 415, "unsupported_media_type"))) {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.getPort() + c.path()))
                    .method(c.method(), HttpRequest.BodyPublishers.ofString("{}"))
                    .header("Content-Type", c.contentType()).header("Accept", "application/json")
                    .header("Authorization", "Bearer routing-test-credential").build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(c.status(), response.statusCode(), c + ": " + response.body());
            JsonNode body = JSON.readTree(response.body());
            assertEquals(c.error(), body.path("error").asText(), c + ": " + response.body());
            assertFalse(body.path("message").asText().isEmpty(), c + ": " + response.body());
            assertEquals(2, body.size(), c + ": " + response.body());
        }
    }
}
