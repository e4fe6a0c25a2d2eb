package dev.gatehouse.gateway.policy.remote;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import dev.gatehouse.facts.DecisionInputMapper;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.facts.CallerFacts;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.gateway.support.Facts;
import dev.gatehouse.gateway.support.PolicySources;
import dev.gatehouse.gateway.policy.api.PolicyFault;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.VisibleTools;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An OPA that answers anything but a well-formed decision is a fault and never an allow: WireMock stands in for OPA,
 * answering each broken shape, an error status, or nothing in time. Before each test it serves a revision the
 * gateway can use: the enforcement document and the self-test's answers (matched by the self-test's input, so the
 * answers a test stubs for real calls never reach the self-test).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RemotePdpFaultTest {

    private static final Duration DEADLINE = Duration.ofMillis(500);
    private static final String DECISION_PATH = "/v1/data/gatehouse/authz/decision";
    private static final String LIST_PATH = "/v1/data/gatehouse/authz/visible_tools";
    private static final String ENFORCEMENT_PATH = "/v1/data/gatehouse/authz/enforcement";

    private static final CallerFacts CALLER = Facts.a1();
    private static final DecisionInput WIKI_READ = new DecisionInput(Optional.of("wiki_read"),
            Optional.of(Map.of("path", "page.md")), List.of(), CALLER, Map.of());

    private WireMockServer opa;
    private RemotePdp pdp;

    @BeforeAll
    void start() {
        opa = new WireMockServer(WireMockConfiguration.options().bindAddress("127.0.0.1").dynamicPort());
        opa.start();
        serve(Optional.empty());
        pdp = pdpAt("http://127.0.0.1:" + opa.port());
        // Answered calls first, so the deadline below runs against a warm client, not class loading.
        opa.stubFor(post(urlPathEqualTo(DECISION_PATH)).willReturn(okJson(
                "{\"result\":{\"allow\":false,\"reasons\":[{\"code\":\"schema\",\"message\":\"m\"}],"
                        + "\"obligations\":{}}}")));
        for (int i = 0; i < 20; i++) {
            pdp.decide(WIKI_READ);
        }
    }

    @AfterAll
    void stop() {
        pdp.close();
        opa.stop();
    }

    @BeforeEach
    void reset() {
        opa.resetAll();
        serve(Optional.empty());
    }

    /** OPA serving a revision the gateway can use ({@code revision} in its provenance, none when empty). */
    private void serve(Optional<String> revision) {
        String provenance = revision.map(r -> "\"provenance\":{\"bundles\":{\"policies\":{\"revision\":\""
                + r + "\"}}},").orElse("");
        String contents = PolicyJson.write(PolicyJson.MAPPER.valueToTree(Map.of("accessTable",
                PolicySources.accessTable(), "toolSchemas", PolicySources.schemas(), "reasons", Map.of(), "ceilings", List.of(), "modes", Map.of())));
        opa.stubFor(post(urlPathEqualTo(ENFORCEMENT_PATH)).atPriority(1)
                .willReturn(okJson("{" + provenance + "\"result\":" + contents + "}")));
        opa.stubFor(post(urlPathEqualTo(DECISION_PATH)).atPriority(1).withRequestBody(containing("self-test"))
                .willReturn(okJson("{" + provenance + "\"result\":{\"allow\":false,\"reasons\":[{\"code\":"
                        + "\"x\",\"message\":\"m\"}],\"obligations\":{}}}")));
        opa.stubFor(post(urlPathEqualTo(LIST_PATH)).atPriority(1).withRequestBody(containing("self-test"))
                .willReturn(okJson("{" + provenance + "\"result\":[]}")));
    }

    static Stream<Arguments> brokenAnswers() {
        return Stream.of(
                Arguments.of("undefined {}", okJson("{}"), PolicyFault.UNDEFINED),
                Arguments.of("{\"result\":{}}", okJson("{\"result\":{}}"), PolicyFault.MALFORMED_RESULT),
                Arguments.of("allow \"true\"", okJson(
                        "{\"result\":{\"allow\":\"true\",\"reasons\":[],\"obligations\":{}}}"),
                        PolicyFault.MALFORMED_RESULT),
                Arguments.of("allow 1", okJson("{\"result\":{\"allow\":1,\"reasons\":[],\"obligations\":{}}}"),
                        PolicyFault.MALFORMED_RESULT),
                Arguments.of("[true]", okJson("{\"result\":[true]}"), PolicyFault.MALFORMED_RESULT),
                Arguments.of("not JSON", aResponse().withStatus(200).withBody("allow"), PolicyFault.MALFORMED_RESULT),
                Arguments.of("a JSON array", okJson("[{\"result\":true}]"), PolicyFault.MALFORMED_RESULT),
                Arguments.of("HTTP 500", aResponse().withStatus(500).withBody(
                        "{\"code\":\"internal_error\",\"message\":\"eval failed\"}"), PolicyFault.EVALUATION_ERROR),
                Arguments.of("HTTP 404", aResponse().withStatus(404), PolicyFault.EVALUATION_ERROR),
                Arguments.of("redirect", aResponse().withStatus(307).withHeader("Location", "/elsewhere"),
                        PolicyFault.EVALUATION_ERROR),
                Arguments.of("HTTP 201 with a decision", aResponse().withStatus(201).withBody(
                        "{\"result\":{\"allow\":true,\"reasons\":[],\"obligations\":{}}}"), PolicyFault.EVALUATION_ERROR),
                Arguments.of("empty body", aResponse().withStatus(200), PolicyFault.MALFORMED_RESULT));
    }

    @ParameterizedTest(name = "{0} -> {2}")
    @MethodSource("brokenAnswers")
    void aBrokenAnswerIsAFault(String name, ResponseDefinitionBuilder answer, String code) {
        opa.stubFor(post(urlPathEqualTo(DECISION_PATH)).willReturn(answer));
        assertEquals(code, assertInstanceOf(PolicyOutcome.Failed.class, pdp.decide(WIKI_READ)).fault().code());
        assertFalse(pdp.status().healthy());
    }

    /** An allow that comes a minute late: only the configured deadline can make it a fault; no clock is read. */
    @Test
    void aLateAnswerIsATimeoutAtTheConfiguredDeadline() {
        opa.stubFor(post(urlPathEqualTo(DECISION_PATH)).willReturn(okJson(
                "{\"result\":{\"allow\":true,\"reasons\":[],\"obligations\":{}}}").withFixedDelay(60_000)));
        PolicyFault fault = assertInstanceOf(PolicyOutcome.Failed.class, pdp.decide(WIKI_READ)).fault();
        assertEquals(new PolicyFault(PolicyFault.TIMEOUT, "no answer within " + DEADLINE.toMillis() + " ms"), fault);
        assertFalse(pdp.status().healthy());
    }

    @Test
    void visibleToolsMustBeAListOfNames() {
        opa.stubFor(post(urlPathEqualTo(LIST_PATH)).willReturn(okJson("{\"result\":{\"tools\":[]}}")));
        assertEquals(PolicyFault.MALFORMED_RESULT, assertInstanceOf(PolicyOutcome.Failed.class,
                pdp.visibleTools(DecisionInput.forListing(CALLER))).fault().code());
        opa.stubFor(post(urlPathEqualTo(LIST_PATH)).willReturn(okJson("{}")));
        assertEquals(PolicyFault.UNDEFINED, assertInstanceOf(PolicyOutcome.Failed.class,
                pdp.visibleTools(DecisionInput.forListing(CALLER))).fault().code());
    }

    /**
     * OPA activated another revision unseen: the answer that names it is refused (the call's contents came from
     * the one read before), and the next call reads the new revision's contents and decides on them.
     */
    @Test
    void aWellFormedAnswerDecidesAndCarriesItsRevision() {
        assertEquals(RemotePdp.UNKNOWN_REVISION, pdp.serving().orElseThrow().revision());
        serve(Optional.of("r-42"));
        opa.stubFor(post(urlPathEqualTo(DECISION_PATH)).willReturn(okJson("""
                {"provenance":{"version":"1.22.3","bundles":{"policies":{"revision":"r-42"}}},
                 "result":{"allow":true,"reasons":[],"obligations":{"wikiPaths":{"path":"agents/a1/page.md"}}}}
                """)));
        assertEquals(PolicyFault.REVISION_CHANGED, assertInstanceOf(PolicyOutcome.Failed.class,
                pdp.decide(WIKI_READ)).fault().code());
        Decision decision = (Decision) assertInstanceOf(PolicyOutcome.Decided.class, pdp.decide(WIKI_READ)).value();
        assertTrue(decision.allow());
        assertEquals("r-42", decision.bundleRevision());
        assertEquals("r-42", pdp.serving().orElseThrow().revision());
        assertEquals("r-42", pdp.status().bundleRevision().orElseThrow());
        opa.verify(postRequestedFor(urlEqualTo(DECISION_PATH + "?provenance=true"))
                .withHeader("Content-Type", containing(
                        "application/json"))
                .withRequestBody(equalToJson("{\"input\":" + PolicyJson.write(DecisionInputMapper.forCall(WIKI_READ))
                        + "}")));
        opa.stubFor(post(urlPathEqualTo(LIST_PATH)).willReturn(okJson(
                "{\"provenance\":{\"bundles\":{\"policies\":{\"revision\":\"r-42\"}}},\"result\":[\"wiki_read\"]}")));
        VisibleTools tools = (VisibleTools) assertInstanceOf(PolicyOutcome.Decided.class,
                pdp.visibleTools(DecisionInput.forListing(CALLER))).value();
        assertEquals(List.of("wiki_read"), tools.names());
        assertEquals("r-42", tools.bundleRevision());
        serve(Optional.empty());
        opa.stubFor(post(urlPathEqualTo(DECISION_PATH)).willReturn(okJson(
                "{\"result\":{\"allow\":true,\"reasons\":[],\"obligations\":{\"wikiPaths\":{\"path\":\"p\"}}}}")));
        assertEquals(PolicyFault.REVISION_CHANGED, assertInstanceOf(PolicyOutcome.Failed.class,
                pdp.decide(WIKI_READ)).fault().code(), "back to a bundle without a revision: read again too");
        assertEquals(RemotePdp.UNKNOWN_REVISION, pdp.serving().orElseThrow().revision());
    }

    /** A revision OPA serves that this gateway cannot enforce is not used: every call fails closed. */
    @Test
    void aRevisionTheGatewayCannotEnforceIsNotUsed() {
        RemotePdpConfiguration configuration = new RemotePdpConfiguration();
        configuration.setUrl("http://127.0.0.1:" + opa.port());
        configuration.setDeadline(DEADLINE);
        RemotePdp refusing = new RemotePdp(configuration, contents -> List.of("access-table row without handler: x"),
                java.time.Clock.systemUTC());
        try {
            assertTrue(refusing.serving().isEmpty());
            String detail = refusing.status().fault().orElseThrow().detail();
            assertTrue(detail.contains("cannot be enforced by this gateway: access-table row without handler: x"),
                    detail);
            assertEquals(PolicyFault.BUNDLE_UNAVAILABLE, assertInstanceOf(PolicyOutcome.Failed.class,
                    refusing.decide(WIKI_READ)).fault().code());
        } finally {
            refusing.close();
        }
    }

    @Test
    void noServerIsATimeoutFault() throws Exception {
        int unused;
        try (ServerSocket socket = new ServerSocket(0)) {
            unused = socket.getLocalPort();
        }
        RemotePdp nowhere = pdpAt("http://127.0.0.1:" + unused);
        try {
            assertFalse(nowhere.status().healthy(), "the start-up self-test already failed");
            assertEquals(PolicyFault.TIMEOUT, assertInstanceOf(PolicyOutcome.Failed.class,
                    nowhere.decide(WIKI_READ)).fault().code());
        } finally {
            nowhere.close();
        }
    }

    private static RemotePdp pdpAt(String url) {
        RemotePdpConfiguration configuration = new RemotePdpConfiguration();
        configuration.setUrl(url);
        configuration.setDeadline(DEADLINE);
        return new RemotePdp(configuration);
    }
}
