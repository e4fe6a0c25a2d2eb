package dev.gatehouse.gateway.lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatehouse.gateway.support.RawHttp;
import io.micronaut.context.annotation.Property;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A query string that is not a valid URI query is a 400 with a small JSON body on every path family, with or without
 * the admin credential, and no answer ever carries a stack trace or the container's name.
 */
@MicronautTest(transactional = false)
@Property(name = "micronaut.server.port", value = "-1")
@Property(name = "gatehouse.policy.bundle-path", value = "../target/bundle/bundle.tar.gz")
@Property(name = "gatehouse.admin.credential", value = "query-test-credential")
@Property(name = "gatehouse.audit.path", value = "target/test-decisions/query.jsonl")
@Property(name = "gatehouse.public-url", value = "https://gatehouse.example")
@Property(name = "gatehouse.oauth.issuer", value = "https://issuer.example")
class InvalidQueryStringTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> PATHS = List.of("/health", "/console", "/admin/decisions", "/admin/sessions",
            "/.well-known/oauth-protected-resource", "/prometheus", "/nonexistent");
    private static final List<String> ILLEGAL = List.of("<", ">", "|", "^", "`", "{", "}", "\\", "\"", "<script>");
    private static final List<String> BROKEN_ESCAPES = List.of("%zz", "%f", "%", "a%", "%g0", "%0g");
    private static final List<String> BAD_BYTES = List.of("%ff", "%c3%28", "%00", "%00%ff", "%e2%82", "%c0%af");

    @Inject
    EmbeddedServer server;

    @Test
    void invalidQueriesAreRefusedWith400JsonOnEveryPath() throws Exception {
        for (String path : PATHS) {
            for (List<String> kind : List.of(ILLEGAL, BROKEN_ESCAPES, BAD_BYTES)) {
                for (String bad : kind) {
                    for (boolean credential : List.of(false, true)) {
                        assertRefused(send(path + "?x=" + bad, credential), path + "?x=" + bad);
                    }
                }
            }
        }
    }

    /**
     * Escapes in a path that are not UTF-8 (a new user's trial: {@code PUT /admin/agents/%ff} and
     * {@code /admin/agents/%ED%A0%80} both wrote the agent U+FFFD): 400 JSON on every path family; UTF-8 escapes pass.
     */
    @Test
    void pathEscapesThatAreNotUtf8AreRefusedWith400Json() throws Exception {
        for (String path : List.of("/admin/agents/", "/admin/notices/agents/", "/console/decisions/", "/health/",
                "/nonexistent/")) {
            for (String bad : List.of("%ff", "%ED%A0%80", "%c3%28", "%e2%82", "%c0%af", "a%ffb")) {
                for (boolean credential : List.of(false, true)) {
                    RawHttp.Response response = send(path + bad, credential);
                    assertRefused(response, path + bad);
                    assertTrue(response.body().contains("path"), path + bad + " " + response.body());
                }
            }
        }
        assertEquals(404, send("/admin/agents/%C3%A9-unknown", true).status(), "a UTF-8 escape is an id like any");
        assertTrue(QueryStringFilter.valid("/admin/agents/%F0%9F%98%80"));
    }

    /**
     * A path the container refuses as ambiguous (a new user's trial: {@code /admin/agents/%2e%2e} got only "Bad
     * Request") says which kind of ambiguity in the container's fixed words, never the path itself, on every path
     * family; an encoded NUL, for which the container names none, is still 400 JSON.
     */
    @Test
    void anAmbiguousPathSaysWhichAmbiguityItIs() throws Exception {
        for (String path : List.of("/admin/agents/", "/admin/sessions/", "/console/decisions/", "/health/",
                "/nonexistent/")) {
            for (String bad : List.of("%2e%2e", "%2E%2e/x", "a/%2e%2e/b", "%2e", "a/%2E/b", ".%2e", "%2e.")) {
                for (boolean credential : List.of(false, true)) {
                    RawHttp.Response response = send(path + bad, credential);
                    assertRefused(response, path + bad);
                    assertEquals("Ambiguous URI path segment", JSON.readTree(response.body()).path("message").asText(),
                            path + bad);
                }
            }
            for (String nul : List.of("%00", "a%00b")) {
                assertRefused(send(path + nul, true), path + nul);
            }
        }
    }

    /**
     * What the container refuses before any application code, for which it gives no reason of its own (a new user's
     * trial: a header or URI over 8 KB got no answer at all, the connection closed, once the refusal's reason was
     * looked up), is answered with its status and the small JSON body: a header too large, in one header or in many,
     * a URI too long in its path or its query, an HTTP version it does not speak (the client's fault, not an
     * internal error).
     */
    @Test
    void whatTheContainerRefusesBeforeTheApplicationIsAnsweredWithJson() throws Exception {
        String big = "a".repeat(8200);
        Map<String, Integer> requests = new java.util.LinkedHashMap<>();
        requests.put("GET /health HTTP/1.1\r\nHost: h\r\nX-Big: " + big, 431);
        requests.put("GET /health HTTP/1.1\r\nHost: h" + ("\r\nX-Part: " + "b".repeat(1000)).repeat(10), 431);
        requests.put("GET /admin/agents/" + big + " HTTP/1.1\r\nHost: h", 414);
        requests.put("GET /health?x=" + big + " HTTP/1.1\r\nHost: h", 414);
        requests.put("POST /mcp?x=" + big + " HTTP/1.1\r\nHost: h", 414);
        requests.put("GET /health HTTP/9.9\r\nHost: h", 505);
        for (Map.Entry<String, Integer> request : requests.entrySet()) {
            String label = request.getKey().substring(0, Math.min(40, request.getKey().length())) + "…";
            RawHttp.Response response = RawHttp.send(server.getPort(), request.getKey(), new byte[0]);
            assertEquals(request.getValue(), response.status(), label + " " + response.body());
            JsonNode body = JSON.readTree(response.body());
            assertEquals("http_" + request.getValue(), body.path("error").asText(), label);
            assertClean(response, label);
        }
    }

    @Test
    void aSpaceInTheRequestTargetIsRefusedWithJsonByTheContainer() throws Exception {
        for (String path : PATHS) {
            RawHttp.Response response = send(path + "?x=a b", true);
            assertEquals(400, response.status(), path);
            assertClean(response, path);
        }
    }

    @Test
    void validQueriesStillPass() throws Exception {
        for (String query : List.of("x=1", "x=%41%c3%a9", "a=b&c=d", "x=%3Cscript%3E", "q=a+b:c@d/e?f")) {
            assertEquals(200, send("/health?" + query, false).status(), query);
        }
        assertTrue(QueryStringFilter.valid("reason=not_allowed&tool=wiki.read"));
    }

    @Test
    void theDecisionForEachRawQueryFollowsTheRule() {
        for (List<String> kind : List.of(ILLEGAL, BROKEN_ESCAPES, BAD_BYTES)) {
            for (String bad : kind) {
                assertFalse(QueryStringFilter.valid("x=" + bad), bad);
                assertFalse(QueryStringFilter.valid(bad + "&y=1"), bad);
            }
        }
        for (char c = 0; c < 0x20; c++) {
            assertFalse(QueryStringFilter.valid("x=" + c), "control " + (int) c);
        }
        assertFalse(QueryStringFilter.valid("x=é"), "raw non-ASCII");
    }

    private RawHttp.Response send(String target, boolean credential) throws Exception {
        String head = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + server.getPort() + "\r\nAccept: */*"
                + (credential ? "\r\nAuthorization: Bearer query-test-credential" : "");
        return RawHttp.send(server.getPort(), head, new byte[0]);
    }

    private static void assertRefused(RawHttp.Response response, String target) throws Exception {
        assertEquals(400, response.status(), target + " " + response.body());
        JsonNode body = JSON.readTree(response.body());
        assertEquals("invalid_request", body.path("error").asText(), target);
        assertClean(response, target);
    }

    private static void assertClean(RawHttp.Response response, String target) throws Exception {
        JSON.readTree(response.body());
        String text = response.body().toLowerCase(Locale.ROOT);
        assertFalse(text.contains("at org.") || text.contains("jetty") || text.contains("dev.gatehouse")
                || text.contains("exception"), target + " " + response.body());
        assertTrue(response.headers().getOrDefault("content-type", "").startsWith("application/json"), target);
        assertFalse(response.headers().containsKey("server"), target + " names the container: " + response.headers());
    }
}
