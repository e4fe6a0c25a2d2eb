package dev.gatehouse.gateway.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
import org.junit.jupiter.api.Test;

/**
 * With the console's OpenID client configured, the gateway's public endpoints answer as before: it does not pass the
 * provider's authorization-server or OpenID metadata off as its own (an MCP client would take the gateway for its
 * authorization server), and the protected-resource metadata is still the gateway's. Found by the end-to-end OAuth
 * discovery test once the console was on.
 */
@MicronautTest(transactional = false)
@Property(name = "micronaut.server.port", value = "-1")
@Property(name = "gatehouse.policy.bundle-path", value = "../target/bundle/bundle.tar.gz")
@Property(name = "gatehouse.audit.path", value = "target/test-decisions/console-enabled.jsonl")
@Property(name = "gatehouse.public-url", value = "https://gatehouse.example")
@Property(name = "gatehouse.oauth.issuer", value = "https://issuer.example")
@Property(name = "gatehouse.console.enabled", value = "true")
@Property(name = "micronaut.security.oauth2.clients.console.openid.issuer", value = "http://127.0.0.1:9/unreachable")
class ConsoleEnabledEndpointsTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Inject
    EmbeddedServer server;

    private HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getPort() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theProvidersMetadataIsNotServedAsTheGatewaysOwn() throws Exception {
        for (String path : new String[] {"/.well-known/oauth-authorization-server",
            "/.well-known/openid-configuration"}) {
            assertEquals(404, get(path).statusCode(), path);
        }
        JsonNode metadata = new ObjectMapper().readTree(get("/.well-known/oauth-protected-resource").body());
        assertEquals("https://gatehouse.example/mcp", metadata.path("resource").asText(), metadata.toString());
        assertEquals("https://issuer.example", metadata.path("authorization_servers").get(0).asText());
    }
}
