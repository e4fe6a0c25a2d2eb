package dev.gatehouse.gateway.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatehouse.gateway.auth.SessionStore;
import dev.gatehouse.gateway.auth.SessionTokens;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.AgentDirectory;
import dev.gatehouse.gateway.context.AgentSettingsStore;
import dev.gatehouse.gateway.support.RawHttp;
import dev.gatehouse.gateway.context.AgentKey;
import dev.gatehouse.gateway.context.OutsideAgentIds;
import dev.gatehouse.gateway.context.OutsideAgentRegistration;
import io.micronaut.context.annotation.Property;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The admin API (docs/domain.md §1): its own credential, compared in constant time; agents cannot reach it and the
 * admin credential cannot call /mcp; tokens are 256-bit, stored only as hashes, revocable; settings apply to the
 * next call. Also the public endpoints: RFC 9728 metadata and health.
 */
@MicronautTest(transactional = false)
@Property(name = "micronaut.server.port", value = "-1")
@Property(name = "gatehouse.policy.bundle-path", value = "../target/bundle/bundle.tar.gz")
@Property(name = "gatehouse.admin.credential", value = "admin-test-credential")
@Property(name = "gatehouse.admin.max-body-bytes", value = "" + AdminApiTest.MAX_BODY_BYTES)
@Property(name = "gatehouse.audit.path", value = "target/test-decisions/admin.jsonl")
@Property(name = "gatehouse.public-url", value = "https://gatehouse.example")
@Property(name = "gatehouse.oauth.issuer", value = "https://issuer.example")
class AdminApiTest {

    static final int MAX_BODY_BYTES = 4096;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String SESSION = "{\"environmentId\":\"local\",\"threadId\":\"t1\","
            + "\"providerSessionId\":\"ps-1\",\"providerInstanceId\":\"p-1\",\"logicalAgentId\":\"a1\","
            + "\"t3ProjectId\":\"proj-1\",\"agentName\":\"Agent one\",\"provider\":\"codex\"}";

    @Inject
    EmbeddedServer server;
    @Inject
    SessionStore sessions;
    @Inject
    AgentSettingsStore settings;
    @Inject
    AgentDirectory directory;

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
        assertEquals(Optional.of("no-store"), created.headers().firstValue("Cache-Control"), "it holds a token");
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

    /**
     * A stored text PostgreSQL cannot keep (U+0000) or a page cannot show (other control characters), or longer than
     * a search can match, is the caller's bad input: 400 {@code invalid_fields} naming the field, never 503 with
     * {@code Retry-After} (the new-user trial found "unavailable" for U+0000, an answer asking for a retry that can
     * never succeed, and pages a million pixels wide for 100,000-character texts), and nothing is written. Each
     * variant in each kind of stored record; the longest text allowed is stored.
     */
    @Test
    void textsTheStoreCannotKeepOrAPageCannotShowAreInvalidAndNothingIsWritten() throws Exception {
        Map<String, String> variants = Map.of("U+0000", "a\\u0000b", "U+0007", "a\\u0007b", "line break", "a\\nb",
                "U+009C", "a\\u009cb", "513 characters", "x".repeat(513));
        for (Map.Entry<String, String> variant : variants.entrySet()) {
            String text = variant.getValue();
            Map<String, String[]> requests = Map.of(
                    "agentName", new String[] {"POST", "/admin/sessions", SESSION.replace("Agent one", text)},
                    "project.projectServiceProjectId", new String[] {"PUT", "/admin/agents/a-text",
                        "{\"project\":{\"enabled\":true,\"projectServiceProjectId\":\"" + text + "\"}}"},
                    "subject", new String[] {"PUT", "/admin/outside-agents",
                        "{\"issuer\":\"https://issuer.example\",\"subject\":\"" + text + "\"}"},
                    "issuer", new String[] {"PUT", "/admin/outside-agents",
                        "{\"issuer\":\"" + text + "\",\"subject\":\"s-text\"}"},
                    "limitRuntimeMode", new String[] {"PUT", "/admin/notices/agents/a-text",
                        "{\"projectClientId\":\"c\",\"limitRuntimeMode\":\"" + text + "\","
                            + "\"limitInteractionMode\":\"default\"}"});
            for (Map.Entry<String, String[]> request : requests.entrySet()) {
                String[] r = request.getValue();
                String label = variant.getKey() + " in " + request.getKey();
                HttpResponse<String> refused = admin(r[0], r[1], r[2]);
                assertInvalid(refused, request.getKey(), label);
                assertTrue(refused.headers().firstValue("Retry-After").isEmpty(), label);
            }
        }
        assertEquals(404, admin("GET", "/admin/agents/a-text", null).statusCode(), "no settings were stored");
        HttpResponse<String> longest = admin("PUT", "/admin/agents/a-text", "{\"project\":{\"enabled\":true,"
                + "\"projectServiceProjectId\":\"" + "x".repeat(StoredText.MAX_CHARS) + "\"}}");
        assertEquals(200, longest.statusCode(), longest.body());
    }

    @Test
    void onlyTheAdminCredentialOpensTheAdminApi() throws Exception {
        String agentToken = SessionTokens.mint();
        sessions.put(agentToken, new dev.gatehouse.gateway.auth.AgentSession("s-x", "local", "t1", "ps", "p-1", "a1",
                "proj-1", Optional.empty(), "codex"));
        assertEquals(401, send("POST", "/admin/sessions", SESSION, Optional.empty()).statusCode());
        assertEquals(401, send("POST", "/admin/sessions", SESSION, Optional.of(agentToken)).statusCode());
        assertEquals(401, send("POST", "/admin/sessions", SESSION, Optional.of("admin-test-credentiaL"))
                .statusCode());
        assertEquals(401, send("PUT", "/admin/agents/a1", "{}", Optional.of(agentToken)).statusCode());
        // The scheme's case does not matter (RFC 9110 §11.1); any other scheme, or none, is refused.
        for (String scheme : List.of("bearer", "BEARER", "bEaReR")) {
            assertEquals(200, raw("GET", "/admin/sessions", scheme + " admin-test-credential").statusCode(), scheme);
        }
        for (String header : List.of("Basic admin-test-credential", "admin-test-credential",
                "Bearer", "Bearerx admin-test-credential")) {
            assertEquals(401, raw("GET", "/admin/sessions", header).statusCode(), header);
        }
        // Two Authorization headers are refused whichever of them holds the credential, and so are two credentials.
        String admin = "Authorization: Bearer admin-test-credential";
        for (List<String> pair : List.of(List.of(admin, "Authorization: Bearer nope"),
                List.of("Authorization: Bearer nope", admin), List.of(admin, admin))) {
            RawHttp.Response answer = RawHttp.send(server.getPort(), "GET /admin/sessions HTTP/1.1\r\nHost: 127.0.0.1:"
                    + server.getPort() + "\r\n" + String.join("\r\n", pair), new byte[0]);
            assertEquals(401, answer.status(), pair.toString());
            assertEquals("{\"error\":\"unauthorized\"}", answer.body(), pair.toString());
        }
    }

    /**
     * Every admin route that takes a body, with a body that would be valid but for its size (padded with blanks):
     * one byte over the limit is 413 and nothing is written, whether its length is declared or it comes chunked;
     * at the limit it is taken.
     */
    @Test
    void aBodyOverTheLimitIs413AndNothingIsWritten() throws Exception {
        Map<String, String> routes = Map.of(
                "POST /admin/sessions", SESSION.replace("ps-1", "ps-big").replace("t1", "t-big"),
                "PUT /admin/agents/a-big", "{\"browserAccess\":true}",
                "PUT /admin/notices/agents/a-big", "{\"projectClientId\":\"c-1\",\"limitRuntimeMode\":\"auto\","
                        + "\"limitInteractionMode\":\"default\"}",
                "PUT /admin/outside-agents", "{\"issuer\":\"https://issuer.example\",\"subject\":\"big\","
                        + "\"logicalAgentId\":\"a-big\"}",
                "PUT /admin/service-clients/project/credential", "{\"credential\":\"big\"}");
        int sessionsBefore = sessions.current().size();
        for (Map.Entry<String, String> route : routes.entrySet()) {
            String[] methodAndPath = route.getKey().split(" ");
            byte[] over = padded(route.getValue(), MAX_BODY_BYTES + 1);
            for (boolean chunked : new boolean[] {false, true}) {
                HttpResponse<String> refused = bytes(methodAndPath[0], methodAndPath[1], over, chunked);
                String variant = route.getKey() + (chunked ? " chunked" : " with Content-Length");
                assertEquals(413, refused.statusCode(), variant + ": " + refused.body());
                assertEquals("payload_too_large", JSON.readTree(refused.body()).path("error").asText(), variant);
                assertEquals(Optional.of("close"), refused.headers().firstValue("connection"), variant);
            }
        }
        assertEquals(sessionsBefore, sessions.current().size(), "no session was attached");
        assertEquals(AgentSettings.NONE, settings.get("a-big"), "no settings were stored");
        byte[] atLimit = padded(routes.get("POST /admin/sessions"), MAX_BODY_BYTES);
        for (boolean chunked : new boolean[] {false, true}) {
            HttpResponse<String> taken = bytes("POST", "/admin/sessions", atLimit, chunked);
            assertEquals(201, taken.statusCode(), taken.body());
        }
    }

    /**
     * A body the connection does not deliver whole is 400 invalid_request naming the framing that failed: a chunked
     * one cut short or malformed is never said to have ended before a Content-Length it did not have (a new user's
     * trial at /mcp; the admin API said the same), and nothing is written.
     */
    @Test
    void aBodyCutShortOrMalformedIs400SayingWhichFramingFailed() throws Exception {
        String head = "PUT /admin/agents/a-cut HTTP/1.1\r\nHost: 127.0.0.1:" + server.getPort()
                + "\r\nAuthorization: Bearer admin-test-credential\r\nContent-Type: application/json";
        for (String chunks : List.of("", "5\r\n", "16\r\n{\"browserAccess\"", "2\r\n{}\r\n",
                "zz\r\n{}\r\n0\r\n\r\n", "2\r\n{}XX0\r\n\r\n")) {
            String label = chunks.replace("\r\n", "\\r\\n");
            RawHttp.Response answer = RawHttp.sendAndEnd(server.getPort(), head + "\r\nTransfer-Encoding: chunked",
                    chunks.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            assertEquals(400, answer.status(), label + ": " + answer.body());
            JsonNode body = JSON.readTree(answer.body());
            assertEquals("invalid_request", body.path("error").asText(), label);
            assertEquals("The request body's chunked encoding was malformed or ended before its last chunk, or the"
                    + " body stalled.", body.path("message").asText(), label);
        }
        RawHttp.Response declared = RawHttp.sendAndEnd(server.getPort(), head + "\r\nContent-Length: 100",
                "{\"browserAccess\"".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        assertEquals(400, declared.status(), declared.body());
        assertEquals("The request body ended before its Content-Length, or stalled.",
                JSON.readTree(declared.body()).path("message").asText());
        assertEquals(AgentSettings.NONE, settings.get("a-cut"), "no settings were stored");
    }

    private static byte[] padded(String body, int length) {
        return (body + " ".repeat(length - body.length())).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private HttpResponse<String> bytes(String method, String path, byte[] body, boolean chunked) throws Exception {
        HttpRequest.BodyPublisher publisher = chunked
                ? HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(body))
                : HttpRequest.BodyPublishers.ofByteArray(body);
        // A client of its own: the refused request's connection is closed by the server.
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.getPort() + path)).method(method, publisher)
                .header("Content-Type", "application/json").header("Authorization", "Bearer admin-test-credential")
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> raw(String method, String path, String authorization) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getPort() + path))
                .method(method, HttpRequest.BodyPublishers.noBody()).header("Authorization", authorization).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void noticeProfilesAreStoredAndTheNoticeStatusCountsEveryState() throws Exception {
        assertEquals(401, send("GET", "/admin/notices", null, Optional.empty()).statusCode());
        HttpResponse<String> missing = admin("PUT", "/admin/notices/agents/a1", "{\"runtimeMode\":\"auto\"}");
        assertEquals(400, missing.statusCode(), missing.body());
        assertEquals(List.of("projectClientId", "limitRuntimeMode", "limitInteractionMode"),
                JSON.convertValue(JSON.readTree(missing.body()).path("missing"), List.class));
        HttpResponse<String> none = admin("GET", "/admin/notices/agents/a1", null);
        assertEquals(404, none.statusCode());
        assertEquals(JSON.readTree("{\"error\":\"not_found\",\"message\":\"Nothing by that id.\"}"),
                JSON.readTree(none.body()), "the 404 every admin lookup gives");
        // A mode the served revision does not name on its axis is refused at once, naming the field (a new user's
        // trial stored "bogus" and "inherit", which could only make every delivery needing a thread fail later).
        for (String[] c : new String[][] {{"limitRuntimeMode", "bogus"}, {"limitRuntimeMode", "inherit"},
            {"limitRuntimeMode", "plan"}, {"limitInteractionMode", "auto"}, {"limitInteractionMode", "Default"},
            {"runtimeMode", "full_access"}, {"interactionMode", "inherit"}}) {
            Map<String, String> body = new java.util.LinkedHashMap<>(Map.of("projectClientId", "c-1",
                    "limitRuntimeMode", "auto", "limitInteractionMode", "default"));
            body.put(c[0], c[1]);
            HttpResponse<String> refused = admin("PUT", "/admin/notices/agents/a1", JSON.writeValueAsString(body));
            assertEquals(400, refused.statusCode(), c[0] + "=" + c[1] + ": " + refused.body());
            assertEquals(c[0], JSON.readTree(refused.body()).path("invalid").path(0).asText(), refused.body());
            assertTrue(JSON.readTree(refused.body()).path("messages").path(0).asText().contains("it knows"),
                    refused.body());
        }
        assertEquals(404, admin("GET", "/admin/notices/agents/a1", null).statusCode(), "nothing was written");
        HttpResponse<String> stored = admin("PUT", "/admin/notices/agents/a1", "{\"projectClientId\":\"c-1\","
                + "\"limitRuntimeMode\":\"auto\",\"limitInteractionMode\":\"default\"}");
        assertEquals(200, stored.statusCode(), stored.body());
        JsonNode profile = JSON.readTree(admin("GET", "/admin/notices/agents/a1", null).body());
        assertEquals("c-1", profile.path("projectClientId").asText());
        assertFalse(profile.has("runtimeMode"), "no configured mode: the policy uses the limit");
        JsonNode summary = JSON.readTree(admin("GET", "/admin/notices", null).body());
        assertFalse(summary.path("enabled").asBoolean(true));
        for (String state : List.of("pending", "coalesced", "delivered", "refused", "stale")) {
            assertTrue(summary.path("counts").has(state), summary.toString());
        }
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

    /**
     * docs/domain.md §9: notices are delivered into a thread agent's threads, so a delivery profile for an outside
     * agent (which has none) could never apply; it was stored (200). Now 400 naming {@code agentId}, for the
     * namespace's look-alikes and derived ids too, and nothing is written.
     */
    @Test
    void aDeliveryProfileOfAnOutsideAgentIsRefused() throws Exception {
        String profile = "{\"projectClientId\":\"c-1\",\"limitRuntimeMode\":\"auto\","
                + "\"limitInteractionMode\":\"default\"}";
        for (String id : List.of("oa-o1", "OA-o1", "\u043e\u0430-o1", "\uff4f\uff41-o1",
                OutsideAgentIds.derive("https://issuer.example", "o1"))) {
            HttpResponse<String> refused = admin("PUT", "/admin/notices/agents/" + pathSegment(id), profile);
            assertInvalid(refused, "agentId", id);
            assertTrue(JSON.readTree(refused.body()).path("messages").path(0).asText()
                    .contains("only to thread agents"), refused.body());
            assertEquals(404, admin("GET", "/admin/notices/agents/" + pathSegment(id), null).statusCode(),
                    id + ": nothing was written");
        }
        // The same refusal when the profile is incomplete too: the agent is the first fault, and the only one named.
        assertInvalid(admin("PUT", "/admin/notices/agents/oa-o1", "{}"), "agentId", "oa-o1 {}");
        assertEquals(200, admin("PUT", "/admin/notices/agents/boa-1", profile).statusCode(),
                "a thread agent whose id merely contains oa-");
    }

    /** docs/domain.md §1: outside agents are registered by issuer and subject, in their own namespace. */
    @Test
    void outsideAgentsAreRegisteredListedAndRemovedInTheirOwnNamespace() throws Exception {
        HttpResponse<String> put = admin("PUT", "/admin/outside-agents", "{\"issuer\":\"https://issuer.example\","
                + "\"subject\":\"a1\",\"logicalAgentId\":\"oa-partner\",\"sharesThreadAgent\":\"a1\","
                + "\"wiki\":{\"read\":true,\"write\":true}}");
        assertEquals(200, put.statusCode(), put.body());
        assertEquals("oa-partner", JSON.readTree(put.body()).path("logicalAgentId").asText());
        assertEquals(Optional.of(new OutsideAgentRegistration("https://issuer.example", "a1", "oa-partner",
                Optional.of("a1"))), directory.registration("https://issuer.example", "a1"));
        assertEquals(new AgentSettings.Wiki(true, true), directory.settings(AgentKey.outside("oa-partner")).wiki());

        HttpResponse<String> derived = admin("PUT", "/admin/outside-agents",
                "{\"issuer\":\"https://issuer.example\",\"subject\":\"s2\"}");
        assertEquals(OutsideAgentIds.derive("https://issuer.example", "s2"),
                JSON.readTree(derived.body()).path("logicalAgentId").asText());
        JsonNode listed = JSON.readTree(admin("GET", "/admin/outside-agents", null).body());
        assertEquals(2, listed.size(), listed.toString());
        assertEquals("a1", listed.get(0).path("sharesThreadAgent").asText());

        // The removal and the listing read their parameters strictly, and a removal takes no precondition (a new
        // user's trial: a repeated subject removed the first, a stray parameter and If-Match were ignored).
        for (String stray : List.of("&subject=a1b", "&bogus=1", "&issuer=https://issuer.example")) {
            HttpResponse<String> refused = admin("DELETE", "/admin/outside-agents?issuer=https://issuer.example"
                    + "&subject=a1" + stray, null);
            assertEquals(400, refused.statusCode(), stray + ": " + refused.body());
            assertEquals("invalid_fields", JSON.readTree(refused.body()).path("error").asText());
        }
        for (String header : List.of("If-Match", "If-None-Match")) {
            HttpResponse<String> refused = sendWith("DELETE", "/admin/outside-agents?issuer=https://issuer.example"
                    + "&subject=a1", "", header, "\"7\"");
            assertEquals(400, refused.statusCode(), header);
            assertEquals(header, JSON.readTree(refused.body()).path("invalid").path(0).asText());
        }
        assertEquals(400, admin("GET", "/admin/outside-agents?issuer=https://issuer.example", null).statusCode(),
                "no filter that lists everything");
        assertEquals(2, JSON.readTree(admin("GET", "/admin/outside-agents", null).body()).size(), "nothing removed");
        // A DELETE takes no body, so whatever Content-Type it was sent with is not read (Micronaut answered its own
        // 415 to text/plain and took application/json; foo=bar).
        for (List<String> types : List.of(List.of("Content-Type: text/plain"), List.of("Content-Type: application/xml"),
                List.of("Content-Type: application/json; foo=bar"), List.of("Content-Type:"),
                List.of("Content-Type: text/plain", "Content-Type: application/json"))) {
            RawHttp.Response absent = rawAdmin("DELETE", "/admin/outside-agents?issuer=https://issuer.example"
                    + "&subject=nobody", "", types);
            assertEquals(404, absent.status(), types + ": " + absent.body());
        }
        assertEquals(204, rawAdmin("DELETE", "/admin/outside-agents?issuer=https://issuer.example&subject=a1", "",
                List.of("Content-Type: text/plain")).status());
        assertEquals(404, admin("DELETE", "/admin/outside-agents?issuer=https://issuer.example&subject=a1", null)
                .statusCode());
        assertEquals(401, send("GET", "/admin/outside-agents", null, Optional.empty()).statusCode());
        assertEquals(401, send("PUT", "/admin/outside-agents", "{}", Optional.of("nope")).statusCode());
    }

    @Test
    void namespacesAreRefusedAcrossKinds() throws Exception {
        String base = "{\"issuer\":\"https://issuer.example\",\"subject\":\"x\",";
        for (String body : List.of(base + "\"logicalAgentId\":\"a1\"}", base + "\"logicalAgentId\":\"OA-x\"}",
                base + "\"logicalAgentId\":\"oa-../a1\"}", base + "\"logicalAgentId\":\"oa-\"}",
                base + "\"logicalAgentId\":\"" + OutsideAgentIds.derive("https://issuer.example", "other") + "\"}",
                base + "\"sharesThreadAgent\":\"oa-x\"}", base + "\"sharesThreadAgent\":\" \"}")) {
            HttpResponse<String> refused = admin("PUT", "/admin/outside-agents", body);
            assertEquals(400, refused.statusCode(), body);
            assertEquals("invalid_fields", JSON.readTree(refused.body()).path("error").asText(), body);
        }
        assertEquals(400, admin("PUT", "/admin/outside-agents", "{\"subject\":\"x\"}").statusCode());
        for (String id : List.of("oa-1", "OA-1", "\uff4f\uff41-1", "oa\u200b-1", " oa-1")) {
            String session = SESSION.replace("\"logicalAgentId\":\"a1\"", "\"logicalAgentId\":\"" + id + "\"");
            assertEquals(400, admin("POST", "/admin/sessions", session).statusCode(), id);
        }
        assertEquals(400, admin("PUT", "/admin/agents/oa-1", "{}").statusCode());
        assertEquals(400, admin("PUT", "/admin/agents/OA-1", "{}").statusCode());
    }

    /**
     * Issue 28: a registration's {@code sharesThreadAgent} is a thread agent id, checked as every other one (a
     * session's {@code logicalAgentId}, the settings route's id): the three agree on every variant, and a refusal is a
     * structured 400 naming the field. Look-alikes of the outside-agent namespace are refused too.
     */
    @Test
    void aSharedThreadAgentIsCheckedAsEveryThreadAgentId() throws Exception {
        List<String> refused = List.of("oa-x", "OA-x", "\uff4f\uff41-x", "\u200boa-x", "o\u200ba-x",
                "\u043e\u0430-x", "oa\u2010x", "oa\u2011x", "oa\u2212x", "oa\uff0dx", "o\u0301a-x", "0a-x",
                " oa-x", "\u039fA-x", " ", "\t", "\u3000");
        List<String> accepted = List.of("a1", "oak", "boa-x", "oa_x", "o-a", "agent.7", "\u03b1gent");
        for (String id : refused) {
            assertInvalid(admin("PUT", "/admin/outside-agents", registration(id)), "sharesThreadAgent", id);
            assertInvalid(admin("POST", "/admin/sessions", session(id)), "logicalAgentId", id);
            assertInvalid(admin("PUT", "/admin/agents/" + pathSegment(id), "{}"), "agentId", id);
        }
        assertInvalid(admin("PUT", "/admin/outside-agents", registration("")), "sharesThreadAgent", "empty");
        for (String id : accepted) {
            assertEquals(201, admin("POST", "/admin/sessions", session(id)).statusCode(), id);
            assertEquals(200, admin("PUT", "/admin/agents/" + pathSegment(id), "{}").statusCode(), id);
            HttpResponse<String> put = admin("PUT", "/admin/outside-agents", registration(id));
            assertEquals(200, put.statusCode(), id + " " + put.body());
            assertEquals(id, JSON.readTree(put.body()).path("sharesThreadAgent").asText());
        }
    }

    /**
     * {@code sh\u0430re-…} (a Cyrillic letter) and ids no agent has were shared: 200, handing the outside agent a
     * subtree nobody meant to share. A shared thread agent is one Gatehouse knows (settings or a current session) or,
     * not seen yet, a printable-ASCII id that reads as no known one ({@link SharedThreadAgents}).
     */
    @Test
    void aSharedThreadAgentIsAKnownOneOrAPlainIdThatReadsAsNoKnownOne() throws Exception {
        String suffix = java.util.UUID.randomUUID().toString().substring(0, 8);
        String bySession = "share-" + suffix;
        String greek = "\u03b2eta-" + suffix;
        String bySettings = "\u03b4elta-" + suffix;
        assertEquals(201, admin("POST", "/admin/sessions", session(bySession)).statusCode());
        assertEquals(201, admin("POST", "/admin/sessions", session(greek)).statusCode());
        assertEquals(200, admin("PUT", "/admin/agents/" + pathSegment(bySettings), "{}").statusCode());

        Map<String, String> refused = new java.util.LinkedHashMap<>();
        refused.put("sh\u0430re-" + suffix, "reads as the thread agent " + bySession); // Cyrillic a
        refused.put("SHARE-" + suffix, "reads as the thread agent " + bySession);
        refused.put("\uff53hare-" + suffix, "normal form"); // fullwidth s: no thread agent id at all (ThreadAgentIds)
        refused.put("shar\u0065\u0301-" + suffix, "normal form"); // e + combining acute: not NFKC either
        refused.put("\u03b3amma-" + suffix, "printable ASCII"); // not seen, not ASCII
        refused.put("\u0430gent-" + suffix, "printable ASCII");
        refused.put("new\u00a0agent-" + suffix, "shows every character"); // no thread agent id at all either
        for (Map.Entry<String, String> id : refused.entrySet()) {
            String subject = "refused-" + suffix;
            HttpResponse<String> put = admin("PUT", "/admin/outside-agents", registration(subject, id.getKey()));
            assertInvalid(put, "sharesThreadAgent", id.getKey());
            assertTrue(JSON.readTree(put.body()).path("messages").path(0).asText().contains(id.getValue()),
                    id.getKey() + " " + put.body());
            assertEquals(Optional.empty(), directory.registration("https://issuer.example", subject), "not written");
        }
        for (String id : List.of(bySession, greek, bySettings, "later-" + suffix)) {
            HttpResponse<String> put = admin("PUT", "/admin/outside-agents", registration("ok-" + suffix, id));
            assertEquals(200, put.statusCode(), id + " " + put.body());
            assertEquals(id, JSON.readTree(put.body()).path("sharesThreadAgent").asText());
        }
    }

    /**
     * An operator's write under an id that reads as a known thread agent without being it (a new user's trial:
     * settings for a Cyrillic {@code а1} were taken beside {@code a1}, so they applied to no agent the operator
     * meant) is refused naming that agent, on the settings and the delivery profile routes alike, and nothing is
     * written: another script, case, an accent, a look-alike letter. The host's sessions name agents as they are:
     * attached, such an id is known, and its settings are taken.
     */
    @Test
    void anOperatorsWriteUnderAnIdThatReadsAsAKnownAgentIsRefused() throws Exception {
        String suffix = java.util.UUID.randomUUID().toString().substring(0, 8);
        String known = "agent-" + suffix;
        assertEquals(201, admin("POST", "/admin/sessions", session(known)).statusCode());
        String profile = "{\"projectClientId\":\"c-1\",\"limitRuntimeMode\":\"auto\","
                + "\"limitInteractionMode\":\"default\"}";
        for (String lookalike : List.of("\u0430gent-" + suffix, "AGENT-" + suffix, "Agent-" + suffix,
                "ag\u00e9nt-" + suffix, "\u0251gent-" + suffix, "agent_" + suffix)) {
            for (String[] route : new String[][] {{"/admin/agents/", "{}"}, {"/admin/notices/agents/", profile}}) {
                HttpResponse<String> put = admin("PUT", route[0] + pathSegment(lookalike), route[1]);
                assertInvalid(put, "agentId", lookalike);
                assertTrue(JSON.readTree(put.body()).path("messages").path(0).asText()
                        .contains("reads as the thread agent " + known), lookalike + " " + put.body());
                assertEquals(404, admin("GET", route[0] + pathSegment(lookalike), null).statusCode(), lookalike);
            }
        }
        assertEquals(200, admin("PUT", "/admin/agents/" + known, "{}").statusCode(), "the known id itself");
        assertEquals(200, admin("PUT", "/admin/agents/other-" + suffix, "{}").statusCode(), "an id like no other");
        String attached = "AGENT-" + suffix;
        assertEquals(201, admin("POST", "/admin/sessions", session(attached)).statusCode(), "the host's id");
        assertEquals(200, admin("PUT", "/admin/agents/" + attached, "{}").statusCode(), "known once attached");

        // An outside agent's id read with another separator is outside its namespace, but reads as that agent.
        String outside = "oa-lk-" + suffix;
        HttpResponse<String> registered = admin("PUT", "/admin/outside-agents", JSON.createObjectNode()
                .put("issuer", "https://issuer.example").put("subject", "lk-" + suffix).put("logicalAgentId", outside)
                .toString());
        assertEquals(200, registered.statusCode(), registered.body());
        for (String lookalike : List.of("oa_lk-" + suffix, "oa.lk-" + suffix, "oalk-" + suffix)) {
            HttpResponse<String> put = admin("PUT", "/admin/agents/" + pathSegment(lookalike), "{}");
            assertInvalid(put, "agentId", lookalike);
            assertTrue(JSON.readTree(put.body()).path("messages").path(0).asText()
                    .contains("reads as the outside agent " + outside), lookalike + " " + put.body());
        }
        assertEquals(204, admin("DELETE", "/admin/outside-agents?issuer=https://issuer.example&subject=lk-" + suffix,
                null).statusCode(), "other tests count the registrations");
        // An id is one path segment (the trial stored "..", "a/b" and "a1/../../sessions").
        for (String path : List.of("..", ".", "a%2Fb", "a1%2F..%2F..%2Fsessions", "a%5Cb")) {
            HttpResponse<String> put = admin("PUT", "/admin/agents/" + path, "{}");
            assertInvalid(put, "agentId", path);
            assertTrue(put.body().contains("one path segment"), path + " " + put.body());
        }
    }

    /**
     * The issuer is an OAuth issuer identifier ({@link RegistrationIssuersTest} has every variant), with the trial's
     * port 0 and 99999, right-to-left override in the path and non-ASCII host refused through the API too, and a
     * later trial's percent-encoded override, NUL, line feed, no-break space and byte that is not UTF-8.
     */
    @Test
    void anIssuerThatCannotBeAnOAuthIssuerIsRefused() throws Exception {
        for (String issuer : List.of("issuer.example", "https://issuer.example/", "http://issuer.example",
                "https://issuer.example?tenant=1", "https://issuer.example#x", "https://issuer.example:0",
                "https://issuer.example:99999", "https://issuer.example/\u202etnanet", "https://b\u00fccher.example",
                "https://idp.example/%E2%80%AEabc", "https://idp.example/%00", "https://idp.example/%0A",
                "https://idp.example/%C2%A0", "https://idp.example/%FF")) {
            String body = JSON.createObjectNode().put("issuer", issuer).put("subject", "iss").toString();
            assertInvalid(admin("PUT", "/admin/outside-agents", body), "issuer", issuer);
            assertEquals(Optional.empty(), directory.registration(issuer, "iss"), "not written: " + issuer);
        }
        for (String issuer : List.of("https://issuer.example/tenant", "http://127.0.0.1:8282/gatehouse",
                "http://localhost:8080/default", "https://xn--bcher-kva.example:65535")) {
            String body = JSON.createObjectNode().put("issuer", issuer).put("subject", "iss").toString();
            assertEquals(200, admin("PUT", "/admin/outside-agents", body).statusCode(), issuer);
            assertEquals(204, admin("DELETE", "/admin/outside-agents?issuer=" + pathSegment(issuer) + "&subject=iss",
                    null).statusCode(), issuer);
        }
    }

    private static String registration(String sharesThreadAgent) {
        return registration("sharing", sharesThreadAgent);
    }

    private static String registration(String subject, String sharesThreadAgent) {
        return JSON.createObjectNode().put("issuer", "https://issuer.example").put("subject", subject)
                .put("sharesThreadAgent", sharesThreadAgent).toString();
    }

    private static String session(String logicalAgentId) throws IOException {
        return ((com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(SESSION))
                .put("logicalAgentId", logicalAgentId).toString();
    }

    private static String pathSegment(String id) {
        return java.net.URLEncoder.encode(id, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** A structured 400 naming {@code field}: invalid, or (a blank one, where the route reads blank as absent) missing. */
    private static void assertInvalid(HttpResponse<String> response, String field, String variant) throws IOException {
        assertEquals(400, response.statusCode(), variant + " " + response.body());
        JsonNode body = JSON.readTree(response.body());
        String list = body.path("error").asText().equals("missing_fields") && variant.isBlank() ? "missing" : "invalid";
        assertEquals(list + "_fields", body.path("error").asText(), variant);
        assertEquals(List.of(field), JSON.convertValue(body.path(list), List.class), variant);
    }

    @Test
    void settingsCarryAVersionAndAStaleOneIsAConflict() throws Exception {
        String agent = "v-" + SessionTokens.newId();
        assertEquals(404, admin("GET", "/admin/agents/" + agent, null).statusCode());
        HttpResponse<String> first = admin("PUT", "/admin/agents/" + agent, "{\"wiki\":{\"read\":true}}");
        assertEquals(200, first.statusCode(), first.body());
        assertEquals(1, JSON.readTree(first.body()).path("version").asLong());
        assertEquals("\"1\"", first.headers().firstValue("ETag").orElseThrow());
        HttpResponse<String> read = admin("GET", "/admin/agents/" + agent, null);
        assertEquals(200, read.statusCode());
        assertTrue(JSON.readTree(read.body()).path("wiki").path("read").asBoolean(), read.body());

        HttpResponse<String> guarded = sendWith("PUT", "/admin/agents/" + agent, "{\"wiki\":{\"write\":true}}",
                "If-Match", "\"1\"");
        assertEquals(200, guarded.statusCode(), guarded.body());
        HttpResponse<String> stale = sendWith("PUT", "/admin/agents/" + agent, "{}", "If-Match", "\"1\"");
        assertEquals(409, stale.statusCode(), stale.body());
        assertEquals(2, JSON.readTree(stale.body()).path("currentVersion").asLong());
        assertEquals(409, admin("PUT", "/admin/agents/" + agent, "{\"version\":1}").statusCode());
        assertEquals(200, admin("PUT", "/admin/agents/" + agent, "{\"version\":2}").statusCode());
        assertEquals(200, admin("PUT", "/admin/agents/" + agent, "{}").statusCode(), "no version: last write wins");
        assertEquals(4, settings.find(agent).orElseThrow().version());

        // If-None-Match: * writes only settings not stored yet (a new user's trial found it ignored: v3 → v4, wiped).
        // Stored settings make the condition false (RFC 9110 §13.1.2): 412, as a failed If-Match, not 409 (a later
        // trial); with the body's version 0 too. Version 0 in the body alone is no precondition: a version conflict.
        for (String body : List.of("{}", "{\"version\":0}", " {\"wiki\":{\"read\":true}} ")) {
            HttpResponse<String> exists = sendWith("PUT", "/admin/agents/" + agent, body, "If-None-Match", "*");
            assertEquals(412, exists.statusCode(), body + ": " + exists.body());
            assertEquals("precondition_failed", JSON.readTree(exists.body()).path("error").asText(), body);
            assertTrue(JSON.readTree(exists.body()).path("message").asText().contains("at version 4"), exists.body());
        }
        assertEquals(412, sendWith("PUT", "/admin/agents/" + agent, "{}", "If-None-Match", " * ").statusCode());
        HttpResponse<String> zero = admin("PUT", "/admin/agents/" + agent, "{\"version\":0}");
        assertEquals(409, zero.statusCode(), zero.body());
        assertEquals(4, JSON.readTree(zero.body()).path("currentVersion").asLong());
        assertEquals(4, settings.find(agent).orElseThrow().version(), "nothing was written");
        String fresh = "v-" + SessionTokens.newId();
        HttpResponse<String> created = sendWith("PUT", "/admin/agents/" + fresh, "{\"wiki\":{\"read\":true}}",
                "If-None-Match", "*");
        assertEquals(200, created.statusCode(), created.body());
        assertEquals("\"1\"", created.headers().firstValue("ETag").orElseThrow());
        for (String tag : List.of("\"1\"", "W/\"1\"", "*, \"2\"", "\"*\"")) {
            HttpResponse<String> refused = sendWith("PUT", "/admin/agents/" + fresh, "{}", "If-None-Match", tag);
            assertEquals(400, refused.statusCode(), tag + ": " + refused.body());
            assertEquals("If-None-Match", JSON.readTree(refused.body()).path("invalid").path(0).asText(), tag);
        }
        assertEquals(1, settings.find(fresh).orElseThrow().version(), "nothing was written");
    }

    /**
     * If-Match compares strongly and takes {@code *} (RFC 9110 §13.1.1; a new user's trial found {@code W/"1"} taken
     * as {@code "1"} and {@code *} refused with 400): a weak tag never matches, {@code *} matches stored settings and
     * fails without them; a failed precondition is 412 and writes nothing.
     */
    @Test
    void ifMatchComparesStronglyAndStarMatchesStoredSettingsOnly() throws Exception {
        String agent = "m-" + SessionTokens.newId();
        for (String weak : List.of("W/\"0\"", "W/\"1\"", " W/\"1\" ")) {
            HttpResponse<String> refused = sendWith("PUT", "/admin/agents/" + agent, "{}", "If-Match", weak);
            assertEquals(412, refused.statusCode(), weak + ": " + refused.body());
            assertEquals("precondition_failed", JSON.readTree(refused.body()).path("error").asText(), weak);
            assertTrue(JSON.readTree(refused.body()).path("message").asText().contains("weak"), refused.body());
        }
        HttpResponse<String> none = sendWith("PUT", "/admin/agents/" + agent, "{\"wiki\":{\"read\":true}}",
                "If-Match", "*");
        assertEquals(412, none.statusCode(), none.body());
        assertEquals("precondition_failed", JSON.readTree(none.body()).path("error").asText());
        assertTrue(settings.find(agent).isEmpty(), "nothing was written");

        assertEquals(200, admin("PUT", "/admin/agents/" + agent, "{}").statusCode());
        for (String weak : List.of("W/\"1\"", "W/\"2\"")) {
            assertEquals(412, sendWith("PUT", "/admin/agents/" + agent, "{\"wiki\":{\"write\":true}}",
                    "If-Match", weak).statusCode(), weak);
        }
        assertEquals(1, settings.find(agent).orElseThrow().version(), "a weak tag wrote nothing");
        HttpResponse<String> any = sendWith("PUT", "/admin/agents/" + agent, "{\"wiki\":{\"read\":true}}",
                "If-Match", "*");
        assertEquals(200, any.statusCode(), any.body());
        assertEquals("\"2\"", any.headers().firstValue("ETag").orElseThrow());
        assertEquals(200, sendWith("PUT", "/admin/agents/" + agent, "{\"version\":2}", "If-Match", " * ")
                .statusCode(), "* and the current version agree");
        assertEquals(409, sendWith("PUT", "/admin/agents/" + agent, "{\"version\":1}", "If-Match", "*")
                .statusCode(), "* and a stale version: the version counts");
        HttpResponse<String> contradiction = sendWith("PUT", "/admin/agents/" + agent, "{\"version\":0}",
                "If-Match", "*");
        assertEquals(400, contradiction.statusCode(), "* (stored) and version 0 (none stored) contradict");
        assertEquals("version", JSON.readTree(contradiction.body()).path("invalid").path(0).asText());
        // An empty tag (a client's ETag variable came out empty) and a version with a leading zero (not the ETag
        // sent, character by character) too: a new user's trial found both written.
        for (String malformed : List.of("\"*\"", "*, \"3\"", "\"3\", \"4\"", "\"-3\"", "", " ", "\"\"", "\"03\"",
                "03", "00")) {
            HttpResponse<String> refused = sendWith("PUT", "/admin/agents/" + agent, "{}", "If-Match", malformed);
            assertEquals(400, refused.statusCode(), malformed + ": " + refused.body());
            assertEquals("version", JSON.readTree(refused.body()).path("invalid").path(0).asText(), malformed);
        }
        assertEquals(3, settings.find(agent).orElseThrow().version(), "nothing else was written");
        assertEquals(200, sendWith("PUT", "/admin/agents/" + agent, "{}", "If-Match", "\"3\"").statusCode(),
                "the strong tag as given matches");
    }

    /**
     * The admin API's writes take no query parameter, as its GETs and {@code DELETE /admin/outside-agents} read theirs:
     * {@code PUT /admin/agents/a1?version=1} looked like a precondition and was ignored, as was any other parameter.
     * An unknown name, a plausible one ({@code version}, {@code force}), an empty name or one given twice is 400
     * naming it ({@code invalid_fields}; {@code invalid_version} for {@code version}, as every refusal of that field
     * alone), on every write route, and nothing is written.
     */
    @Test
    void everyAdminWriteRefusesAQueryParameter() throws Exception {
        String id = "query-" + SessionTokens.newId();
        Map<String, String> routes = new java.util.LinkedHashMap<>();
        routes.put("POST /admin/sessions", SESSION.replace("ps-1", "ps-" + id).replace("\"t1\"", "\"t-" + id + "\""));
        routes.put("DELETE /admin/sessions/" + id, "");
        routes.put("PUT /admin/agents/a-" + id, "{\"browserAccess\":true}");
        routes.put("PUT /admin/notices/agents/a-" + id, "{\"projectClientId\":\"c-1\",\"limitRuntimeMode\":\"auto\","
                + "\"limitInteractionMode\":\"default\"}");
        routes.put("PUT /admin/outside-agents", "{\"issuer\":\"https://issuer.example\",\"subject\":\"" + id + "\"}");
        routes.put("PUT /admin/service-clients/project/credential", "{\"credential\":\"queried\"}");
        routes.put("DELETE /admin/service-clients/project/credential", "");
        Map<String, String> variants = Map.of("?bogus=1", "bogus", "?version=1", "version", "?force", "force",
                "?=1", "", "?version=1&version=1", "version");
        int sessionsBefore = sessions.current().size();
        for (Map.Entry<String, String> route : routes.entrySet()) {
            String[] methodAndPath = route.getKey().split(" ");
            for (Map.Entry<String, String> variant : variants.entrySet()) {
                String label = route.getKey() + variant.getKey();
                RawHttp.Response refused = rawAdmin(methodAndPath[0], methodAndPath[1] + variant.getKey(),
                        route.getValue(), methodAndPath[0].equals("DELETE") ? List.of() : json(List.of()));
                assertEquals(400, refused.status(), label + ": " + refused.body());
                JsonNode body = JSON.readTree(refused.body());
                // A refusal on version alone is invalid_version, whatever refused it, with the same invalid list.
                assertEquals(variant.getValue().equals("version") ? "invalid_version" : "invalid_fields",
                        body.path("error").asText(), label);
                assertEquals(variant.getValue(), body.path("invalid").path(0).asText(), label + ": " + refused.body());
            }
        }
        assertEquals(sessionsBefore, sessions.current().size(), "no session was attached");
        assertTrue(settings.find("a-" + id).isEmpty(), "no settings were stored");
        assertEquals(404, admin("GET", "/admin/notices/agents/a-" + id, null).statusCode(), "no profile was stored");
        assertEquals(Optional.empty(), directory.registration("https://issuer.example", id), "nothing registered");
        assertEquals(200, admin("PUT", "/admin/agents/a-" + id, routes.get("PUT /admin/agents/a-" + id)).statusCode(),
                "without the parameter it writes");
    }

    /**
     * A write of something that keeps no version (a session, a delivery profile, a service credential) takes no
     * {@code If-Match} or {@code If-None-Match}, as {@code DELETE /admin/outside-agents} takes none: one was ignored,
     * so {@code If-None-Match: *} replaced a stored profile. Each, in any form, is 400 {@code invalid_fields} naming
     * it, on every such route, and nothing is written.
     */
    @Test
    void aWriteOfSomethingWithoutAVersionRefusesAPrecondition() throws Exception {
        String id = "unversioned-" + SessionTokens.newId();
        String profile = "{\"projectClientId\":\"c-1\",\"limitRuntimeMode\":\"auto\","
                + "\"limitInteractionMode\":\"default\"}";
        assertEquals(200, admin("PUT", "/admin/notices/agents/a-" + id, profile).statusCode());
        Map<String, String> routes = new java.util.LinkedHashMap<>();
        routes.put("POST /admin/sessions", SESSION.replace("ps-1", "ps-" + id).replace("\"t1\"", "\"t-" + id + "\""));
        routes.put("DELETE /admin/sessions/" + id, "");
        routes.put("PUT /admin/notices/agents/a-" + id, profile.replace("c-1", "c-2"));
        routes.put("PUT /admin/service-clients/project/credential", "{\"credential\":\"conditional\"}");
        routes.put("DELETE /admin/service-clients/project/credential", "");
        Map<List<String>, List<String>> conditions = Map.of(List.of("If-Match: \"1\""), List.of("If-Match"),
                List.of("If-Match: *"), List.of("If-Match"), List.of("If-Match: W/\"1\""), List.of("If-Match"),
                List.of("If-None-Match: *"), List.of("If-None-Match"), List.of("if-none-match: \"1\""),
                List.of("If-None-Match"), List.of("If-Match: *", "If-None-Match: *"),
                List.of("If-Match", "If-None-Match"));
        int sessionsBefore = sessions.current().size();
        for (Map.Entry<String, String> route : routes.entrySet()) {
            String[] methodAndPath = route.getKey().split(" ");
            for (Map.Entry<List<String>, List<String>> condition : conditions.entrySet()) {
                String label = route.getKey() + " " + condition.getKey();
                RawHttp.Response refused = rawAdmin(methodAndPath[0], methodAndPath[1], route.getValue(),
                        methodAndPath[0].equals("DELETE") ? condition.getKey() : json(condition.getKey()));
                assertEquals(400, refused.status(), label + ": " + refused.body());
                JsonNode body = JSON.readTree(refused.body());
                assertEquals("invalid_fields", body.path("error").asText(), label);
                assertEquals(condition.getValue(), JSON.convertValue(body.path("invalid"), List.class), label);
                assertTrue(body.path("messages").path(0).asText().contains("no precondition"), label);
            }
        }
        assertEquals(sessionsBefore, sessions.current().size(), "no session was attached");
        assertEquals("c-1", JSON.readTree(admin("GET", "/admin/notices/agents/a-" + id, null).body())
                .path("projectClientId").asText(), "the profile was not replaced");
    }

    /**
     * Two {@code If-Match} or two {@code If-None-Match} lines on one write leave which version the client meant a guess
     * (a new user's trial: the first was read): 400 {@code invalid_fields} naming the header, whatever the lines say
     * (the same version too) and however the name is spelt, on both routes that read them; nothing is written, and
     * the header given once still works.
     */
    @Test
    void aConditionalHeaderGivenTwiceIsRefusedNamingIt() throws Exception {
        String agent = "twice-" + SessionTokens.newId();
        String subject = "twice-" + SessionTokens.newId();
        assertEquals(200, admin("PUT", "/admin/agents/" + agent, "{}").statusCode());
        String registration = JSON.createObjectNode().put("issuer", "https://issuer.example").put("subject", subject)
                .toString();
        assertEquals(200, admin("PUT", "/admin/outside-agents", registration).statusCode());
        Map<String, String> routes = Map.of("/admin/agents/" + agent, "{\"wiki\":{\"read\":true}}",
                "/admin/outside-agents", registration.replace("}", ",\"wiki\":{\"read\":true}}"));
        for (Map.Entry<String, String> route : routes.entrySet()) {
            for (String name : List.of("If-Match", "If-None-Match")) {
                String value = name.equals("If-Match") ? "\"1\"" : "*";
                List<List<String>> twice = List.of(List.of(name + ": " + value, name + ": " + value),
                        List.of(name + ": \"1\"", name + ": \"2\""), List.of(name + ": *", name + ": \"1\""),
                        List.of(name.toLowerCase(java.util.Locale.ROOT) + ": " + value,
                                name.toUpperCase(java.util.Locale.ROOT) + ": " + value),
                        List.of(name + ": " + value, name + ": " + value, name + ": " + value));
                for (List<String> lines : twice) {
                    String label = route.getKey() + " " + lines;
                    RawHttp.Response refused = rawAdmin("PUT", route.getKey(), route.getValue(), json(lines));
                    assertEquals(400, refused.status(), label + ": " + refused.body());
                    JsonNode body = JSON.readTree(refused.body());
                    assertEquals("invalid_fields", body.path("error").asText(), label);
                    assertEquals(List.of(name), JSON.convertValue(body.path("invalid"), List.class), label);
                    assertTrue(body.path("messages").path(0).asText().contains("times"), label);
                }
            }
            RawHttp.Response both = rawAdmin("PUT", route.getKey(), route.getValue(), json(List.of("If-Match: \"1\"",
                    "If-None-Match: *", "If-Match: \"1\"", "If-None-Match: *")));
            assertEquals(List.of("If-Match", "If-None-Match"), JSON.convertValue(JSON.readTree(both.body())
                    .path("invalid"), List.class), route.getKey());
        }
        assertEquals(1, settings.find(agent).orElseThrow().version(), "nothing was written");
        assertEquals(1, JSON.readTree(admin("GET", "/admin/agents/" + agent, null).body()).path("version").asLong());
        for (Map.Entry<String, String> route : routes.entrySet()) {
            RawHttp.Response once = rawAdmin("PUT", route.getKey(), route.getValue(), json(List.of("If-Match: \"1\"")));
            assertEquals(200, once.status(), route.getKey() + ": " + once.body());
        }
    }

    /**
     * A body the admin API reads as JSON must be sent as JSON (a new user's trial: a JSON body sent as
     * {@code text/plain}, or with no Content-Type, was accepted): on every route that takes a body, any other type, a
     * charset other than UTF-8 or another form of it, another parameter, a repeated charset, a value outside RFC 9110's
     * grammar (bad quoting, no subtype), an empty or no Content-Type, or two of them is 415
     * {@code {"error":"unsupported_media_type","message"}}, unread, and nothing is written; {@code application/json},
     * with or without {@code charset=utf-8}, in any case, the charset's value quoted or not, blanks around the
     * {@code ;} and empty parameters, is read (a later trial: {@code charset="utf-8"} and a blank before {@code ;} were
     * refused; the rule is {@code JsonContentType}'s, as at {@code /mcp}). A request to a route without a body (GET,
     * DELETE) needs none.
     */
    @Test
    void aBodyNotSentAsJsonIs415OnEveryRouteThatTakesOne() throws Exception {
        String id = "type-" + SessionTokens.newId();
        Map<String, String> routes = new java.util.LinkedHashMap<>();
        routes.put("POST /admin/sessions", SESSION.replace("ps-1", "ps-" + id).replace("\"t1\"", "\"t-" + id + "\""));
        routes.put("PUT /admin/agents/a-" + id, "{\"browserAccess\":true}");
        routes.put("PUT /admin/notices/agents/a-" + id, "{\"projectClientId\":\"c-1\",\"limitRuntimeMode\":\"auto\","
                + "\"limitInteractionMode\":\"default\"}");
        routes.put("PUT /admin/outside-agents", "{\"issuer\":\"https://issuer.example\",\"subject\":\"" + id + "\"}");
        routes.put("PUT /admin/service-clients/project/credential", "{\"credential\":\"typed\"}");
        List<List<String>> refused = new java.util.ArrayList<>();
        for (String type : List.of("text/plain", "text/plain; charset=utf-8", "application/x-www-form-urlencoded",
                "multipart/form-data; boundary=x", "application/xml", "application/*", "*/*", "", "application",
                "application/json; charset=iso-8859-1", "application/json; charset=utf-16",
                "application/json; charset=utf8",
                "application/json; charset=", "application/json; boundary=x", "application/json; charset=utf-8; q=1",
                "application/jsonx", "application/json-seq", "application/problem+json", "application /json",
                "application/json charset=utf-8", "application/json, text/plain", "application/json; charset=utf-8,",
                "application/json; charset=utf-8; charset=utf-8", "application/json; charset=\"utf-8",
                "application/json; charset=utf-8\"", "application/json; charset=\"utf-8\"x", "application/",
                "application/json; foo=bar",
                "/json", "application/json/x", "application/json; =utf-8", "application/json; charset",
                "application/json; charset =utf-8", "application/json; charset= utf-8",
                "application/json; charset=\"\"", "application/json; charset=\"utf8\"",
                "application/json; q=\"1\"", "application/json; charset=utf-8; boundary=\"x\"",
                "application/json; charset=\"utf-8\u00e9\"")) {
            refused.add(List.of("Content-Type: " + type));
        }
        refused.add(List.of());
        refused.add(List.of("Content-Type: application/json", "Content-Type: application/json"));
        refused.add(List.of("Content-Type: application/json", "Content-Type: text/plain"));
        int sessionsBefore = sessions.current().size();
        for (Map.Entry<String, String> route : routes.entrySet()) {
            String[] methodAndPath = route.getKey().split(" ");
            for (List<String> lines : refused) {
                String label = route.getKey() + " " + lines;
                RawHttp.Response answer = rawAdmin(methodAndPath[0], methodAndPath[1], route.getValue(), lines);
                assertEquals(415, answer.status(), label + ": " + answer.body());
                JsonNode body = JSON.readTree(answer.body());
                assertEquals("unsupported_media_type", body.path("error").asText(), label);
                assertTrue(body.path("message").asText().contains("application/json"), label);
                assertEquals(2, body.size(), label + ": " + answer.body());
            }
        }
        // A control character in a field value is refused by the HTTP server itself, before any filter reads it.
        for (String type : List.of("application/json;\u0001", "application/json; charset=\"utf-8\u007f\"",
                "application/json\u0000")) {
            RawHttp.Response answer = rawAdmin("PUT", "/admin/agents/a-" + id, "{\"browserAccess\":true}",
                    List.of("Content-Type: " + type));
            assertEquals(400, answer.status(), type + ": " + answer.body());
        }
        assertEquals(sessionsBefore, sessions.current().size(), "no session was attached");
        assertTrue(settings.find("a-" + id).isEmpty(), "no settings were stored");
        assertEquals(404, admin("GET", "/admin/notices/agents/a-" + id, null).statusCode(), "no profile was stored");
        assertEquals(Optional.empty(), directory.registration("https://issuer.example", id), "nothing registered");

        List<String> accepted = List.of("application/json", "Application/JSON", "application/json; charset=utf-8",
                "application/json;charset=UTF-8", "APPLICATION/JSON;CHARSET=UTF-8", "application/json;\tCharset=Utf-8",
                "application/json ; charset=utf-8", "application/json\t;charset=utf-8",
                "application/json; charset=\"utf-8\"", "application/json;charset=\"UTF-8\"",
                "application/json; charset=\"utf\\-8\"", "application/json;", "application/json;;charset=utf-8",
                "application/json; ; charset=utf-8 ;", "application/json ;");
        for (Map.Entry<String, String> route : routes.entrySet()) {
            String[] methodAndPath = route.getKey().split(" ");
            for (String type : accepted) {
                String body = route.getKey().startsWith("POST") ? route.getValue().replace(id, id + type.length()
                        + type.hashCode()) : route.getValue();
                RawHttp.Response answer = rawAdmin(methodAndPath[0], methodAndPath[1], body,
                        List.of("Content-Type: " + type));
                assertTrue(answer.status() != 415 && answer.status() < 500, route.getKey() + " " + type + ": "
                        + answer.status() + " " + answer.body());
            }
        }
        assertTrue(settings.find("a-" + id).orElseThrow().settings().browserAccess(), "read as JSON");
        for (String path : List.of("GET /admin/sessions", "GET /admin/agents/a-" + id, "DELETE /admin/sessions/none")) {
            String[] methodAndPath = path.split(" ");
            RawHttp.Response answer = rawAdmin(methodAndPath[0], methodAndPath[1], "", List.of());
            assertTrue(answer.status() == 200 || answer.status() == 404, path + ": " + answer.body());
        }
    }

    /** {@code lines} after {@code Content-Type: application/json}. */
    private static List<String> json(List<String> lines) {
        return java.util.stream.Stream.concat(java.util.stream.Stream.of("Content-Type: application/json"),
                lines.stream()).toList();
    }

    /** An admin request as sent on the wire, with the admin credential, a Content-Length and these header lines. */
    /**
     * A write no route takes is the dispatcher's 404, or 405 with {@code Allow}, whatever its media type (a new user's
     * trial: {@code PUT /admin/nonexistent} and {@code POST /admin/agents/a1} without a {@code Content-Type} were 415,
     * as if a type would have made them work); a write a route takes is still 415 without JSON.
     */
    @Test
    void aWriteNoRouteTakesIsNotFoundOrNotAllowedWhateverItsType() throws Exception {
        List<List<String>> types = List.of(List.of(), List.of("Content-Type: text/plain"),
                List.of("Content-Type: application/xml"), List.of("Content-Type: application/json"));
        Map<String, Integer> writes = new java.util.LinkedHashMap<>();
        writes.put("PUT /admin/nonexistent", 404);
        writes.put("POST /admin/agents/nobody/x", 404);
        writes.put("POST /admin/agents/a1", 405);
        writes.put("PUT /admin/sessions", 405);
        writes.put("POST /admin/pipeline-timings", 405);
        writes.put("POST /admin/access-table", 405);
        for (Map.Entry<String, Integer> write : writes.entrySet()) {
            String[] request = write.getKey().split(" ");
            for (List<String> type : types) {
                RawHttp.Response response = rawAdmin(request[0], request[1], "x", type);
                assertEquals(write.getValue(), response.status(), write.getKey() + " " + type + " " + response.body());
                if (write.getValue() == 405) {
                    assertTrue(response.headers().containsKey("allow"), write.getKey() + " " + response.headers());
                }
            }
        }
        for (List<String> type : types.subList(0, 3)) {
            assertEquals(415, rawAdmin("PUT", "/admin/agents/a1", "{}", type).status(), "routed " + type);
            assertEquals(415, rawAdmin("POST", "/admin/sessions", "{}", type).status(), "routed " + type);
        }
    }

    private RawHttp.Response rawAdmin(String method, String path, String body, List<String> headers)
            throws IOException {
        byte[] bytes = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + server.getPort()
                + "\r\nAuthorization: Bearer admin-test-credential\r\nContent-Length: " + bytes.length);
        headers.forEach(header -> head.append("\r\n").append(header));
        return RawHttp.send(server.getPort(), head.toString(), bytes);
    }

    @Test
    void theProviderKindIsCheckedAndStoredAndListedWithoutTokens() throws Exception {
        for (String provider : new String[] {"codex", "claude", "cursor", "grok", "opencode"}) {
            assertEquals(201, admin("POST", "/admin/sessions", SESSION.replace("codex", provider)).statusCode());
        }
        HttpResponse<String> unknown = admin("POST", "/admin/sessions", SESSION.replace("codex", "gemini"));
        assertEquals(400, unknown.statusCode());
        assertTrue(unknown.body().contains("unsupported_provider"), unknown.body());
        HttpResponse<String> external = admin("POST", "/admin/sessions",
                SESSION.replace("\"codex\"", "\"opencode\",\"managed\":\"external\""));
        assertEquals(400, external.statusCode());
        assertTrue(external.body().contains("externally managed OpenCode servers are not supported in this phase"),
                external.body());
        assertEquals(201, admin("POST", "/admin/sessions",
                SESSION.replace("\"codex\"", "\"opencode\",\"managed\":\"local\"")).statusCode());
        assertEquals(201, admin("POST", "/admin/sessions",
                SESSION.replace("\"codex\"", "\"claude\",\"managed\":\"external\"")).statusCode());
        HttpResponse<String> missing = admin("POST", "/admin/sessions", SESSION.replace(",\"provider\":\"codex\"", ""));
        assertEquals(400, missing.statusCode());
        assertTrue(missing.body().contains("provider"), missing.body());

        HttpResponse<String> created = admin("POST", "/admin/sessions", SESSION.replace("codex", "grok"));
        String token = JSON.readTree(created.body()).path("token").asText();
        String id = JSON.readTree(created.body()).path("sessionId").asText();
        assertEquals("grok", sessions.findByToken(token).orElseThrow().provider());
        HttpResponse<String> listed = admin("GET", "/admin/sessions", null);
        assertEquals(200, listed.statusCode());
        assertTrue(listed.body().contains(id), listed.body());
        assertTrue(!listed.body().contains(token) && !listed.body().contains(SessionTokens.hash(token)),
                "never a token or hash");
        assertEquals(204, admin("DELETE", "/admin/sessions/" + id, null).statusCode());
        assertTrue(!admin("GET", "/admin/sessions", null).body().contains(id), "revoked sessions are not listed");
    }

    private HttpResponse<String> sendWith(String method, String path, String body, String header, String value)
            throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getPort() + path))
                .method(method, HttpRequest.BodyPublishers.ofString(body))
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer admin-test-credential")
                .header(header, value).build(), HttpResponse.BodyHandlers.ofString());
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
        // the manifest revision make bundle wrote (scripts/source-revision.sh), and the key that verified it
        assertTrue(health.path("pdp").path("bundleRevision").asText().matches("[0-9a-f]{64}"), response.body());
        assertEquals("default", health.path("pdp").path("bundleKeyId").asText(), response.body());
    }

    /** The read API answers from the served bundle: the access table as enforced, and scopes as derived. */
    @Test
    void theAccessTableAndAnAgentsEffectiveCapabilitiesComeFromThePolicy() throws Exception {
        HttpResponse<String> table = admin("GET", "/admin/access-table", null);
        assertEquals(200, table.statusCode(), table.body());
        JsonNode served = JSON.readTree(table.body());
        assertEquals(JSON.readTree(java.nio.file.Files.readString(dev.gatehouse.gateway.policy.TestBundle.policies()
                .resolve("gatehouse/access_table/data.json"))), served.path("accessTable"));
        assertFalse(served.path("revision").asText().isEmpty());
        assertEquals(401, send("GET", "/admin/access-table", null, Optional.empty()).statusCode());

        assertEquals(200, admin("PUT", "/admin/agents/cap-agent", "{\"browserAccess\":false,\"project\":{"
                + "\"enabled\":false},\"wiki\":{\"read\":true,\"write\":false}}").statusCode());
        JsonNode thread = JSON.readTree(admin("GET", "/admin/agents/cap-agent/capabilities", null).body());
        assertEquals(JSON.readTree("[\"orchestration\",\"wiki.read\"]"), thread.path("capabilities"));
        assertEquals("thread", thread.path("kind").asText());
        JsonNode nothing = JSON.readTree(admin("GET", "/admin/agents/never-set/capabilities", null).body());
        assertEquals(JSON.readTree("[\"orchestration\"]"), nothing.path("capabilities"));

        // An outside agent holds what the policy derives for the ceiling asked about, passed on as given; without
        // one, only what its settings grant.
        JsonNode approved = JSON.readTree(admin("GET", "/admin/agents/oa-cap/capabilities?ceiling=full-access", null)
                .body());
        assertEquals("outside_agent", approved.path("kind").asText());
        assertEquals(JSON.readTree("[\"orchestration\"]"), approved.path("capabilities"));
        for (String query : List.of("", "?ceiling=read-only")) {
            JsonNode held = JSON.readTree(admin("GET", "/admin/agents/oa-cap/capabilities" + query, null).body());
            assertEquals(JSON.readTree("[]"), held.path("capabilities"), query);
        }
        // A ceiling the served revision does not name is refused, for either kind of agent, not answered as if a
        // token carried it.
        for (String path : List.of("oa-cap", "cap-agent")) {
            for (String ceiling : List.of("no-such-ceiling", "Full-Access", "full-access%20", "")) {
                HttpResponse<String> unknown = admin("GET", "/admin/agents/" + path + "/capabilities?ceiling="
                        + ceiling, null);
                assertEquals(400, unknown.statusCode(), path + " " + ceiling + ": " + unknown.body());
                assertEquals("ceiling", JSON.readTree(unknown.body()).path("invalid").path(0).asText(), ceiling);
            }
        }
        // Two ceilings, or a parameter it does not take, are refused too (a new user's trial: the first counted).
        for (String[] c : new String[][] {{"?ceiling=full-access&ceiling=read-only", "ceiling"},
            {"?ceiling=read-only&ceiling=read-only", "ceiling"}, {"?celing=full-access", "celing"}}) {
            HttpResponse<String> refused = admin("GET", "/admin/agents/oa-cap/capabilities" + c[0], null);
            assertEquals(400, refused.statusCode(), c[0] + ": " + refused.body());
            assertEquals(c[1], JSON.readTree(refused.body()).path("invalid").path(0).asText(), c[0]);
            // it is a lookup, and its message says so (a new user's trial: "a search takes one value")
            assertTrue(refused.body().contains("lookup") && !refused.body().contains("search"), refused.body());
        }
    }

    /**
     * Every admin GET reads its query string as the searches and {@code GET /admin/outside-agents} do (a new user's
     * trial: {@code GET /admin/agents/{id}}, {@code /admin/sessions} and {@code /admin/notices} answered
     * {@code ?bogus=1} and a repeated parameter as if they were not there): a name it does not take, an empty name, or
     * a name it takes given twice is 400 {@code invalid_fields} naming it. The variants are generated for every GET
     * route from the names it takes; without a parameter, or with an empty query, each still answers.
     */
    @Test
    void everyAdminGetRefusesAParameterItDoesNotTakeAnEmptyNameAndOneGivenTwice() throws Exception {
        Map<String, List<String>> gets = new java.util.LinkedHashMap<>();
        for (String path : List.of("/admin/agents/a-query", "/admin/sessions", "/admin/notices",
                "/admin/notices/agents/a-query", "/admin/outside-agents", "/admin/service-clients",
                "/admin/access-table", "/admin/pipeline-timings", "/admin/decisions/" + java.util.UUID.randomUUID())) {
            gets.put(path, List.of());
        }
        gets.put("/admin/agents/a-query/capabilities", List.of("ceiling"));
        gets.put("/admin/notices/receipts", NoticeQueries.PARAMETERS);
        gets.put("/admin/audit", AuditAdminController.AuditQueries.PARAMETERS);
        gets.put("/admin/decisions", DecisionQueries.PARAMETERS);
        gets.put("/admin/decisions/export", DecisionQueries.PARAMETERS);
        for (Map.Entry<String, List<String>> get : gets.entrySet()) {
            Map<String, String> variants = new java.util.LinkedHashMap<>();
            variants.put("?bogus=1", "bogus");
            variants.put("?bogus", "bogus");
            variants.put("?bogus=1&bogus=2", "bogus");
            variants.put("?=1", "");
            variants.put("?=", "");
            for (String known : get.getValue()) {
                variants.put("?" + known + "=1&" + known + "=1", known);
                variants.put("?" + known + "=1&" + known + "=2", known);
                variants.put("?" + known.toUpperCase(java.util.Locale.ROOT) + "=1", known.toUpperCase(
                        java.util.Locale.ROOT));
            }
            for (Map.Entry<String, String> variant : variants.entrySet()) {
                String label = get.getKey() + variant.getKey();
                HttpResponse<String> refused = admin("GET", get.getKey() + variant.getKey(), null);
                assertEquals(400, refused.statusCode(), label + ": " + refused.body());
                JsonNode body = JSON.readTree(refused.body());
                assertEquals("invalid_fields", body.path("error").asText(), label);
                assertEquals(variant.getValue(), body.path("invalid").path(0).asText(), label + ": " + refused.body());
            }
            // The refusal of a name it does not take lists, each quoted, the names it does (a new user's trial read
            // "it takes removed." on a console page taking one).
            String message = JSON.readTree(admin("GET", get.getKey() + "?bogus=1", null).body()).path("messages")
                    .path(0).asText();
            assertTrue(get.getValue().isEmpty() ? message.contains("takes none") : message.endsWith("it takes "
                    + String.join(", ", get.getValue().stream().map(n -> "\"" + n + "\"").toList()) + "."),
                    get.getKey() + ": " + message);
            for (String none : List.of("", "?")) {
                HttpResponse<String> answered = admin("GET", get.getKey() + none, null);
                assertTrue(answered.statusCode() == 200 || answered.statusCode() == 404,
                        get.getKey() + none + ": " + answered.statusCode() + " " + answered.body());
            }
        }
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
        String call = list.replace("\"method\":\"tools/list\",\"params\":{", "\"method\":\"tools/call\",\"params\":{"
                + "\"name\":\"no_such_tool\",\"arguments\":{},");
        RawHttp.post(server.getPort(), call, "Authorization: Bearer " + token, "Mcp-Method: tools/call",
                "Mcp-Name: no_such_tool", "MCP-Protocol-Version: 2026-07-28");
        assertEquals(401, send("GET", "/admin/pipeline-timings", null, Optional.of(token)).statusCode());
        HttpResponse<String> response = send("GET", "/admin/pipeline-timings", null,
                Optional.of("admin-test-credential"));
        assertEquals(200, response.statusCode(), response.body());
        boolean counted = false;
        java.util.Set<String> gateSteps = new java.util.TreeSet<>();
        java.util.Set<String> lookups = new java.util.TreeSet<>();
        java.util.Set<String> evaluated = new java.util.TreeSet<>();
        for (JsonNode timer : JSON.readTree(response.body())) {
            if ("engine".equals(timer.path("timer").asText()) && timer.path("count").asLong() > 0
                    && "cpu".equals(timer.path("outcome").asText()) && timer.path("totalMicros").asDouble() > 0
                    && timer.path("buckets").size() > 0) {
                evaluated.add(timer.path("step").asText());
            }
            counted |= "era".equals(timer.path("step").asText()) && "passed".equals(timer.path("outcome").asText())
                    && timer.path("count").asLong() > 0;
            if ("gate".equals(timer.path("timer").asText()) && timer.path("count").asLong() > 0) {
                gateSteps.add(timer.path("step").asText());
            }
            if ("store".equals(timer.path("timer").asText()) && timer.path("count").asLong() > 0
                    && timer.path("buckets").size() > 0) {
                lookups.add(timer.path("step").asText());
            }
        }
        assertTrue(counted, response.body());
        // The denied call ran every step but the handler (its quota step charged nothing), the listing every step
        // but the quota and the handler; both lookups of a thread caller were timed.
        assertEquals(java.util.Set.of("facts", "arguments", "decision", "quota", "decision-log", "enforce"),
                gateSteps, response.body());
        assertTrue(lookups.containsAll(java.util.Set.of("lookup.agent_session", "lookup.agent_settings")),
                response.body());
        // The engine's CPU time per evaluation: the listing and the call were each evaluated (or were before, by an
        // earlier test: the memo answers an input it has seen, and the timers count since start).
        assertTrue(evaluated.containsAll(java.util.Set.of("decision", "visible_tools")), response.body());
    }
}
