package dev.gatehouse.gateway.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatehouse.gateway.auth.SessionStore;
import dev.gatehouse.gateway.auth.SessionTokens;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.AgentSettingsStore;
import dev.gatehouse.gateway.support.RawHttp;
import io.micronaut.context.annotation.Property;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The admin API (docs/domain.md §1): its own credential, compared in constant time; agents cannot reach it and the
 * admin credential cannot call /mcp; tokens are 256-bit, stored only as hashes, revocable; settings apply to the
 * next call. Also the public endpoints: RFC 9728 metadata and health.
 */
@MicronautTest
@Property(name = "micronaut.server.port", value = "-1")
@Property(name = "gatehouse.policy.bundle-path", value = "../target/bundle/bundle.tar.gz")
@Property(name = "gatehouse.admin.credential", value = "admin-test-credential")
@Property(name = "gatehouse.audit.path", value = "target/test-decisions/admin.jsonl")
@Property(name = "gatehouse.public-url", value = "https://gatehouse.example")
@Property(name = "gatehouse.oauth.issuer", value = "https://issuer.example")
class AdminApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String SESSION = "{\"environmentId\":\"local\",\"threadId\":\"t1\","
            + "\"providerSessionId\":\"ps-1\",\"providerInstanceId\":\"p-1\",\"logicalAgentId\":\"a1\","
            + "\"t3ProjectId\":\"proj-1\",\"agentName\":\"Agent one\"}";

    @Inject
    EmbeddedServer server;
    @Inject
    SessionStore sessions;
    @Inject
    AgentSettingsStore settings;

    private HttpResponse<String> send(String method, String path, String body, Optional<String> bearer)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getPort() + path))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json");
        bearer.ifPresent(token -> request.header("Authorization", "Bearer " + token));
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> admin(String method, String path, String body) throws Exception {
        return send(method, path, body, Optional.of("admin-test-credential"));
    }

    @Test
    void sessionsAreMintedAsOpaqueTokensStoredHashedAndRevocable() throws Exception {
        HttpResponse<String> created = admin("POST", "/admin/sessions", SESSION);
        assertEquals(201, created.statusCode(), created.body());
        JsonNode body = JSON.readTree(created.body());
        String token = body.path("token").asText();
        assertTrue(token.matches("[A-Za-z0-9_-]{43}"), token);
        assertEquals("a1", sessions.findByToken(token).orElseThrow().logicalAgentId());

        String list = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"t\",\"version\":\"1\"},"
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
        String[] modern = {"Authorization: Bearer " + token, "Mcp-Method: tools/list",
            "MCP-Protocol-Version: 2026-07-28"};
        assertEquals(200, RawHttp.post(server.getPort(), list, modern).status());

        assertEquals(204, admin("DELETE", "/admin/sessions/" + body.path("sessionId").asText(), null).statusCode());
        assertEquals(401, RawHttp.post(server.getPort(), list, modern).status());
        assertEquals(404, admin("DELETE", "/admin/sessions/" + body.path("sessionId").asText(), null).statusCode());
    }

    @Test
    void missingFieldsAreNamed() throws Exception {
        HttpResponse<String> response = admin("POST", "/admin/sessions", "{\"environmentId\":\"local\"}");
        assertEquals(400, response.statusCode());
        assertTrue(response.body().contains("providerInstanceId"), response.body());
    }

    @Test
    void onlyTheAdminCredentialOpensTheAdminApi() throws Exception {
        String agentToken = SessionTokens.mint();
        sessions.put(agentToken, new dev.gatehouse.gateway.auth.AgentSession("s-x", "local", "t1", "ps", "p-1", "a1",
                "proj-1", Optional.empty()));
        assertEquals(401, send("POST", "/admin/sessions", SESSION, Optional.empty()).statusCode());
        assertEquals(401, send("POST", "/admin/sessions", SESSION, Optional.of(agentToken)).statusCode());
        assertEquals(401, send("POST", "/admin/sessions", SESSION, Optional.of("admin-test-credentiaL"))
                .statusCode());
        assertEquals(401, send("PUT", "/admin/agents/a1", "{}", Optional.of(agentToken)).statusCode());
    }

    @Test
    void agentSettingsReplaceTheStoredOnes() throws Exception {
        HttpResponse<String> response = admin("PUT", "/admin/agents/a9", "{\"browserAccess\":true,"
                + "\"project\":{\"enabled\":true,\"projectServiceProjectId\":\"ps-9\"},\"wiki\":{\"read\":true}}");
        assertEquals(200, response.statusCode(), response.body());
        assertEquals(new AgentSettings(true, new AgentSettings.Project(true, Optional.of("ps-9")),
                new AgentSettings.Wiki(true, false)), settings.get("a9"));
        assertEquals(400, admin("PUT", "/admin/agents/a9", "{\"project\":{\"enabled\":true}}").statusCode());
    }

    @Test
    void protectedResourceMetadataNamesTheResourceAndIssuer() throws Exception {
        HttpResponse<String> response = send("GET", "/.well-known/oauth-protected-resource", null, Optional.empty());
        assertEquals(200, response.statusCode());
        JsonNode metadata = JSON.readTree(response.body());
        assertEquals("https://gatehouse.example/mcp", metadata.path("resource").asText());
        assertEquals("https://issuer.example", metadata.path("authorization_servers").get(0).asText());
        assertEquals(response.body(),
                send("GET", "/.well-known/oauth-protected-resource/mcp", null, Optional.empty()).body());
        RawHttp.Response unauthorized = RawHttp.post(server.getPort(), "{}");
        assertEquals("Bearer resource_metadata=\"https://gatehouse.example/.well-known/oauth-protected-resource\"",
                unauthorized.headers().get("www-authenticate"));
    }

    @Test
    void healthReportsTheBundleRevision() throws Exception {
        HttpResponse<String> response = send("GET", "/health", null, Optional.empty());
        assertEquals(200, response.statusCode(), response.body());
        JsonNode health = JSON.readTree(response.body());
        assertEquals("UP", health.path("status").asText());
        assertTrue(health.path("pdp").path("bundleRevision").asText().matches("[0-9a-f]{64}"), response.body());
    }

    @Test
    void pipelineTimingsAreAdminOnlyAndCountTheSteps() throws Exception {
        String token = JSON.readTree(admin("POST", "/admin/sessions", SESSION).body()).path("token").asText();
        String list = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
                + "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"t\",\"version\":\"1\"},"
                + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";
        RawHttp.post(server.getPort(), list, "Authorization: Bearer " + token, "Mcp-Method: tools/list",
                "MCP-Protocol-Version: 2026-07-28");
        assertEquals(401, send("GET", "/admin/pipeline-timings", null, Optional.of(token)).statusCode());
        HttpResponse<String> response = send("GET", "/admin/pipeline-timings", null,
                Optional.of("admin-test-credential"));
        assertEquals(200, response.statusCode(), response.body());
        boolean counted = false;
        for (JsonNode timer : JSON.readTree(response.body())) {
            counted |= "era".equals(timer.path("step").asText()) && "passed".equals(timer.path("outcome").asText())
                    && timer.path("count").asLong() > 0;
        }
        assertTrue(counted, response.body());
    }
}
