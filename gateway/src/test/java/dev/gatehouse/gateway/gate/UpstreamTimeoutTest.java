package dev.gatehouse.gateway.gate;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import com.github.tomakehurst.wiremock.client.WireMock;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.gatehouse.facade.error.ServiceError;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.AgentSettingsStore;
import dev.gatehouse.gateway.support.Callers;
import dev.gatehouse.gateway.support.HostStubs;
import dev.gatehouse.gateway.tools.ToolOutcome;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.test.support.TestPropertyProvider;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A wiki service that accepts a read and answers only after a minute, long after the configured deadline. Each call
 * through the gate ends as a structured {@code unavailable} tool error that names the configured deadline (without it
 * the call would wait the minute out and succeed), the read is sent once (a read is retried only when the connection
 * was refused), and the gateway keeps answering afterwards. Nothing is timed: the outcome shows which came first.
 */
@MicronautTest(transactional = false)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UpstreamTimeoutTest implements TestPropertyProvider {

    private static final long DEADLINE_MS = 500;
    private static final int CALLS = 5;

    private final WireMockServer services = new WireMockServer(wireMockConfig().bindAddress("127.0.0.1").dynamicPort());

    @Inject
    Gate gate;
    @Inject
    AgentSettingsStore settings;

    @Override
    public Map<String, String> getProperties() {
        services.start();
        HostStubs.liveThreadT1(services);
        services.stubFor(WireMock.get(urlPathEqualTo("/wiki/v1/pages")).willReturn(aResponse().withFixedDelay(60_000)));
        String url = services.baseUrl();
        return Map.of(
                "micronaut.server.port", "-1",
                "gatehouse.policy.bundle-path", System.getProperty("gatehouse.bundle.dir", "../target/bundle")
                        + "/bundle.tar.gz",
                "gatehouse.audit.path", "target/test-decisions/upstream-timeout.jsonl",
                "gatehouse.admin.credential", "admin-test-credential",
                "gatehouse.services.host.url", url,
                "gatehouse.services.host.credential", "service-credential",
                "gatehouse.services.wiki.url", url,
                "gatehouse.services.wiki.credential", "service-credential",
                "gatehouse.services.wiki.deadline", DEADLINE_MS + "ms");
    }

    @AfterAll
    void stop() {
        services.stop();
    }

    @Test
    void aServiceThatNeverAnswersEndsInUnavailableWithinTheDeadlineAndTheGatewayStaysUp() {
        settings.put("a1", new AgentSettings(false, new AgentSettings.Project(false, Optional.empty()),
                new AgentSettings.Wiki(true, false)));
        assertFalse(assertInstanceOf(Listing.Listed.class, gate.list(Callers.a1())).tools().isEmpty());

        for (int i = 0; i < CALLS; i++) {
            GateResult result = gate.call(Callers.a1(), "wiki_read", Map.of("path", "page.md"));

            GateResult.Completed completed = assertInstanceOf(GateResult.Completed.class, result);
            ToolOutcome.Failed failed = assertInstanceOf(ToolOutcome.Failed.class, completed.outcome());
            assertEquals(new ServiceError.Unavailable("the wiki service did not answer within " + DEADLINE_MS
                    + " ms"), failed.error(), "call " + i);
            assertFalse(completed.decisionId().isBlank());
        }
        services.verify(CALLS, getRequestedFor(urlPathEqualTo("/wiki/v1/pages")));
        assertTrue(assertInstanceOf(Listing.Listed.class, gate.list(Callers.a1())).tools().stream().anyMatch(tool -> tool.name().equals("wiki_read")),
                "the gateway must still answer after the timeouts");
    }
}
