package dev.gatehouse.gateway.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatehouse.gateway.auth.AgentSession;
import dev.gatehouse.gateway.auth.SessionStore;
import dev.gatehouse.gateway.auth.SessionTokens;
import dev.gatehouse.gateway.context.TrustedContextResolver;
import dev.gatehouse.gateway.quota.FairShare;
import dev.gatehouse.gateway.support.Callers;
import dev.gatehouse.gateway.support.RawHttp;
import io.micronaut.context.annotation.Property;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A {@code tools/list} over real HTTP from an agent that holds every place of its fair share (docs/domain.md §10)
 * is answered HTTP 429 with {@code Retry-After} in whole seconds and the JSON-RPC error whose {@code data} is the
 * {@code rate_limited} form of a tool error (ToolListRoute answers both eras' listings); another agent is listed
 * meanwhile, and the agent's own next listing is once its place is free. One in-flight place, none queued: the
 * refusal comes without waiting.
 */
@MicronautTest(transactional = false)
@Property(name = "micronaut.server.port", value = "-1")
@Property(name = "gatehouse.policy.bundle-path", value = "../target/bundle/bundle.tar.gz")
@Property(name = "gatehouse.admin.credential", value = "admin-test-credential")
@Property(name = "gatehouse.audit.path", value = "target/test-decisions/tool-list-over-share.jsonl")
@Property(name = "gatehouse.quotas.in-flight", value = "1")
@Property(name = "gatehouse.quotas.queued", value = "0")
class ToolListOverShareTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MODERN = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\",\"params\":{"
            + "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"t\",\"version\":\"1\"},"
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}}}";

    @Inject
    EmbeddedServer server;
    @Inject
    SessionStore sessions;
    @Inject
    FairShare share;
    @Inject
    TrustedContextResolver pip;

    @Test
    void aListingOverTheCallersShareIs429WithRetryAfter() throws IOException {
        String a1 = token("a1", "t1");
        String a2 = token("a2", "t2");

        try (FairShare.Place held = share.enter(pip.resolve(Callers.a1()).facts())) {
            assertTrue(held.refusal().isEmpty(), "the test holds a1's one place");
            overShare(modern(a1));
            RawHttp.Response other = modern(a2);
            assertEquals(200, other.status(), "another agent's share is its own: " + other.body());
        }
        RawHttp.Response after = modern(a1);
        assertEquals(200, after.status(), after.body());
        assertTrue(after.body().contains("\"tools\""), after.body());
    }

    private static void overShare(RawHttp.Response response) throws IOException {
        assertEquals(429, response.status(), response.body());
        assertEquals("1", response.headers().get("retry-after"), response.headers().toString());
        JsonNode error = JSON.readTree(response.body()).path("error");
        assertEquals(7, JSON.readTree(response.body()).path("id").asInt(), response.body());
        assertEquals(-32603, error.path("code").asInt(), response.body());
        assertEquals("rate_limited", error.path("data").path("kind").asText(), response.body());
        assertTrue(error.path("data").path("retryable").asBoolean(), response.body());
        long retryAfterMs = error.path("data").path("retryAfterMs").asLong();
        assertTrue(retryAfterMs > 0 && retryAfterMs <= 1000, response.body());
    }

    private RawHttp.Response modern(String token) throws IOException {
        return RawHttp.post(server.getPort(), MODERN, bearer(token), "Mcp-Method: tools/list",
                "MCP-Protocol-Version: 2026-07-28");
    }

    private String token(String agent, String thread) {
        String token = SessionTokens.mint();
        sessions.put(token, new AgentSession("s-share-" + SessionTokens.newId(), "local", thread, "ps-" + thread,
                "p-" + thread, agent, "proj-1", Optional.empty(), "codex"));
        return token;
    }

    private static String bearer(String token) {
        return "Authorization: Bearer " + token;
    }
}
