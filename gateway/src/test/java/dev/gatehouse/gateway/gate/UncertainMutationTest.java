package dev.gatehouse.gateway.gate;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.gatehouse.facade.http.IdempotencyKey;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.AgentSettingsStore;
import dev.gatehouse.gateway.mcp.ToolReply;
import dev.gatehouse.gateway.support.Callers;
import dev.gatehouse.gateway.support.HostStubs;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.test.support.TestPropertyProvider;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Services that take a mutation and never answer, behind the real gate and handlers: each tool's mutation is sent once
 * with {@code Idempotency-Key: gatehouse-<decision id>}, the agent's structured error is {@code uncertain} with that key
 * as {@code operationId} and its toolkit's hint, and nothing else is asked of the stalled service in the same call (the
 * field fault: a submit to a stalled Project Service took twice its deadline, its key being looked up after it, and
 * carried no {@code operationId}). {@code project_operation_get} then finds the operation by that id.
 */
@MicronautTest(transactional = false)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UncertainMutationTest implements TestPropertyProvider {

    private static final long DEADLINE_MS = 1_000;
    /** Longer than the deadline: the service takes the request and does not answer in time. */
    private static final int STALL_MS = 5_000;
    private static final String PROJECT = "/project/v1/projects/ps-demo/agents/a1";
    private static final String COMMITTED =
            "{\"operationId\":\"op-7\",\"status\":\"committed\",\"runId\":\"run-101\"}";

    private final WireMockServer services = new WireMockServer(wireMockConfig().bindAddress("127.0.0.1").dynamicPort());

    @Inject
    Gate gate;
    @Inject
    AgentSettingsStore settings;

    @Override
    public Map<String, String> getProperties() {
        services.start();
        String url = services.baseUrl();
        Map<String, String> properties = new java.util.HashMap<>(Map.of(
                "micronaut.server.port", "-1",
                "gatehouse.policy.bundle-path", System.getProperty("gatehouse.bundle.dir", "../target/bundle")
                        + "/bundle.tar.gz",
                "gatehouse.audit.path", "target/test-decisions/uncertain-mutation.jsonl",
                "gatehouse.admin.credential", "admin-test-credential"));
        for (String service : List.of("host", "project", "wiki")) {
            properties.put("gatehouse.services." + service + ".url", url);
            properties.put("gatehouse.services." + service + ".credential", "service-credential");
            properties.put("gatehouse.services." + service + ".deadline", DEADLINE_MS + "ms");
        }
        return properties;
    }

    @AfterAll
    void stop() {
        services.stop();
    }

    @BeforeEach
    void stalledServices() {
        services.resetAll();
        HostStubs.liveThreadT1(services);
        services.stubFor(WireMock.post(urlPathEqualTo(PROJECT + "/work/run-101/submissions"))
                .willReturn(contract(201, COMMITTED).withFixedDelay(STALL_MS)));
        services.stubFor(WireMock.put(urlPathEqualTo("/wiki/v1/pages")).willReturn(contract(200, "{}")
                .withFixedDelay(STALL_MS)));
        services.stubFor(WireMock.post(urlPathEqualTo("/host/v1/threads/t1/messages")).willReturn(contract(201, "{}")
                .withFixedDelay(STALL_MS)));
        settings.put("a1", new AgentSettings(false, new AgentSettings.Project(true, Optional.of("ps-demo")),
                new AgentSettings.Wiki(true, true)));
        // The first HTTP call of a JVM loads the client (~0.5 s); the deadline is about the service, not class loading.
        assertInstanceOf(Listing.Listed.class, gate.list(Callers.a1()));
        services.resetRequests();
    }

    @Test
    void anUncertainSubmitGivesTheAgentItsOperationIdAndOperationGetFindsIt() {
        GateResult result = gate.call(Callers.a1(), "project_work_submit", Map.of("runId", "run-101",
                "runRevision", "run:4", "assignmentRevision", "position:2", "result", Map.of("summary", "done")));

        String key = assertUncertain(result, "project_operation_get");
        assertEquals(List.of("POST " + PROJECT + "/work/run-101/submissions"), sentTo("/project/"),
                "the submit once, and no lookup after it");
        assertEquals(key, services.findAll(anyRequestedFor(urlPathMatching("/project/.*"))).get(0)
                .getHeader("Idempotency-Key"));

        services.stubFor(WireMock.get(urlPathEqualTo(PROJECT + "/operations"))
                .withQueryParam("idempotencyKey", equalTo(key)).willReturn(contract(200,
                        "{\"operations\":[" + COMMITTED + "]}")));
        GateResult found = gate.call(Callers.a1(), "project_operation_get", Map.of("operationId", key));

        assertEquals(Map.of("operationId", "op-7", "status", "committed", "runId", "run-101"),
                ToolReply.of(assertInstanceOf(GateResult.Decided.class, found)).structuredContent());
    }

    @Test
    void anUncertainWikiWriteGivesTheAgentItsOperationId() {
        GateResult result = gate.call(Callers.a1(), "wiki_write", Map.of("path", "page.md", "content", "text"));

        String key = assertUncertain(result, "wiki_read");
        assertEquals(List.of("PUT /wiki/v1/pages"), sentTo("/wiki/"));
        assertEquals(key, services.findAll(anyRequestedFor(urlPathMatching("/wiki/.*"))).get(0)
                .getHeader("Idempotency-Key"));
    }

    @Test
    void anUncertainThreadSendGivesTheAgentItsOperationId() {
        GateResult result = gate.call(Callers.a1(), "t3_thread_send", Map.of("message", "hello"));

        String key = assertUncertain(result, "t3_thread_read");
        assertEquals(List.of("POST /host/v1/threads/t1/messages"), sentTo("/host/v1/threads/t1/messages"));
        assertEquals(key, services.findAll(anyRequestedFor(urlPathEqualTo("/host/v1/threads/t1/messages"))).get(0)
                .getHeader("Idempotency-Key"));
    }

    /**
     * The agent's view of an uncertain call: {@code {kind: uncertain, message, hint, operationId, decisionId}}, the
     * operation id being the key derived from this call's decision id.
     *
     * @return the operation id
     */
    private static String assertUncertain(GateResult result, String hint) {
        GateResult.Completed completed = assertInstanceOf(GateResult.Completed.class, result, result::toString);
        Map<String, Object> agentSees = ToolReply.of(completed).structuredContent();
        String expected = IdempotencyKey.forDecision(UUID.fromString(completed.decisionId())).value();
        assertEquals("uncertain", agentSees.get("kind"));
        assertEquals(hint, agentSees.get("hint"));
        assertEquals(expected, agentSees.get("operationId"));
        assertEquals(completed.decisionId(), agentSees.get("decisionId"));
        return expected;
    }

    /** Method and path of every request whose path begins with {@code prefix}, in the order they came. */
    private List<String> sentTo(String prefix) {
        return services.getAllServeEvents().stream().map(event -> event.getRequest())
                .filter(request -> request.getUrl().startsWith(prefix))
                .sorted(java.util.Comparator.comparing(LoggedRequest::getLoggedDate))
                .map(request -> request.getMethod() + " " + request.getUrl().split("\\?")[0]).toList();
    }

    private static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder contract(int status, String body) {
        return aResponse().withStatus(status).withHeader("Content-Type", "application/json")
                .withHeader("Api-Version", "1").withBody(body);
    }
}
