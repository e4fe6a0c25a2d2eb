package dev.gatehouse.gateway.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.facts.ArgumentLimits;
import dev.gatehouse.facts.ClosedSchemaArgumentCheck;
import dev.gatehouse.gateway.audit.DecisionLog;
import dev.gatehouse.gateway.audit.DecisionLogConfiguration;
import dev.gatehouse.gateway.auth.GatewayProperties;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.AgentSettingsStore;
import dev.gatehouse.gateway.context.TrustedContextResolver;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdp;
import dev.gatehouse.gateway.quota.FairShare;
import dev.gatehouse.gateway.quota.TestQuotas;
import dev.gatehouse.gateway.store.StoreUnavailableException;
import dev.gatehouse.gateway.support.Callers;
import dev.gatehouse.gateway.support.InMemoryAgentDirectory;
import dev.gatehouse.gateway.support.RecordingHandlers;
import dev.gatehouse.gateway.support.ThreadStateHost;
import dev.gatehouse.gateway.telemetry.DecisionMetrics;
import dev.gatehouse.gateway.telemetry.GateSteps;
import dev.gatehouse.gateway.telemetry.Tracing;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/design.md, "The gate's steps": tools/call and tools/list run the one step list of {@link GatePipeline}, each
 * step timed once per request under its name, and every way of not deciding stops at its step as one
 * {@link GateFault} value (against the real embedded PDP, the real bundle and a real decision log).
 */
class GatePipelineTest {

    private static final String FACTS = "facts";
    private static final String ARGUMENTS = "arguments";
    private static final String DECISION = "decision";
    private static final String QUOTA = "quota";
    private static final String DECISION_LOG = "decision-log";
    private static final String ENFORCE = "enforce";
    private static final String HANDLER = "handler";

    private static PolicyDecisionPoint pdp;

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final InMemoryAgentDirectory settings = new InMemoryAgentDirectory();
    private final RecordingHandlers handlers = new RecordingHandlers();
    private Path logFile;

    @BeforeAll
    static void loadBundle() {
        pdp = new EmbeddedPdp(GateTest.configuration(Path.of(System.getProperty("gatehouse.bundle.dir",
                "../target/bundle"), "bundle.tar.gz")));
        assertTrue(pdp.status().healthy(), "run `make bundle` first: " + pdp.status());
    }

    @BeforeEach
    void settings(@TempDir Path dir) {
        logFile = dir.resolve("decisions.jsonl");
        settings.put("a1", new AgentSettings(false, new AgentSettings.Project(true, Optional.of("pp-1")),
                new AgentSettings.Wiki(true, true)));
    }

    private final TestQuotas quotas = new TestQuotas();
    private FairShare share;

    private Gate gate(PolicyDecisionPoint engine, InMemoryAgentDirectory directory, Path log) {
        DecisionLogConfiguration configuration = new DecisionLogConfiguration();
        configuration.setPath(log.toString());
        DecisionMetrics metrics = new DecisionMetrics(new SimpleMeterRegistry());
        GatePipeline pipeline = new GatePipeline(engine, new DecisionLog(configuration),
                new GateSteps(meters, new Tracing(OpenTelemetry.noop())), metrics, quotas.step());
        share = quotas.fairShare();
        return new Gate(new ToolTables(handlers.all(), new ClosedSchemaArgumentCheck()),
                new TrustedContextResolver(new ThreadStateHost(), directory, new GatewayProperties()), engine,
                pipeline, metrics, new ArgumentLimits(), share);
    }

    /** How often each step was timed: step → count. */
    private Map<String, Long> timed() {
        Map<String, Long> counts = new TreeMap<>();
        for (Timer timer : meters.find(GateSteps.TIMER).timers()) {
            counts.put(timer.getId().getTag("step"), timer.count());
        }
        return counts;
    }

    private static Map<String, Long> once(String... steps) {
        Map<String, Long> counts = new TreeMap<>();
        for (String step : steps) {
            counts.put(step, 1L);
        }
        return counts;
    }

    @Test
    void anAllowedCallRunsEveryStepOnce() {
        GateResult result = gate(pdp, settings, logFile).call(Callers.a1(), "wiki_read",
                Map.of("path", "notes/page.md"));

        assertInstanceOf(GateResult.Completed.class, result, result::toString);
        assertEquals(once(FACTS, ARGUMENTS, DECISION, QUOTA, DECISION_LOG, ENFORCE, HANDLER), timed());
    }

    @Test
    void aDeniedCallIsEnforcedAndRunsNoHandler() {
        GateResult result = gate(pdp, settings, logFile).call(Callers.a1(), "wiki_read",
                Map.of("path", "../a2/secret.md"));

        assertInstanceOf(GateResult.Denied.class, result, result::toString);
        assertEquals(once(FACTS, ARGUMENTS, DECISION, QUOTA, DECISION_LOG, ENFORCE), timed());
        assertEquals(0, handlers.calls.size());
    }

    @Test
    void aListingRunsTheSameStepsAsACallButTheQuotaAndTheHandler() {
        assertInstanceOf(Listing.Listed.class, gate(pdp, settings, logFile).list(Callers.a1()));
        assertEquals(once(FACTS, ARGUMENTS, DECISION, DECISION_LOG, ENFORCE), timed());
    }

    @Test
    void aStoreThatDoesNotAnswerStopsAtTheFactsForCallAndListAlike() throws IOException {
        InMemoryAgentDirectory down = new InMemoryAgentDirectory(new AgentSettingsStore() {
            @Override
            public Write put(String agentId, AgentSettings settings, OptionalLong expectedVersion) {
                throw new StoreUnavailableException("store down", null);
            }

            @Override
            public Optional<Versioned> find(String agentId) {
                throw new StoreUnavailableException("store down", null);
            }

            @Override
            public Optional<Versioned> remove(String agentId) {
                throw new StoreUnavailableException("store down", null);
            }
        });
        Gate gate = gate(pdp, down, logFile);

        GateFault call = assertInstanceOf(GateResult.Unavailable.class,
                gate.call(Callers.a1(), "wiki_read", Map.of("path", "notes/page.md"))).fault();
        GateFault list = assertInstanceOf(Listing.Unavailable.class, gate.list(Callers.a1())).fault();

        assertEquals(GateFault.Kind.FACTS, call.kind());
        assertEquals(GateFault.Kind.FACTS, list.kind());
        assertEquals(Optional.empty(), call.decisionId(), "nothing was decided or logged");
        assertEquals(Map.of(FACTS, 2L), timed());
        assertTrue(Files.notExists(logFile) || Files.readString(logFile).isEmpty(),
                "no record for what was not decided");
    }

    @Test
    void noServingRevisionIsADecisionFaultThatIsLoggedAndNotEnforced() throws IOException {
        PolicyDecisionPoint none = new EmbeddedPdp(GateTest.configuration(Path.of("/nonexistent/bundle.tar.gz")));

        GateFault fault = assertInstanceOf(GateResult.Unavailable.class, gate(none, settings, logFile)
                .call(Callers.a1(), "wiki_read", Map.of("path", "notes/page.md"))).fault();

        assertEquals(GateFault.Kind.DECISION, fault.kind());
        String decisionId = fault.decisionId().orElseThrow().toString();
        assertTrue(Files.readString(logFile).contains(decisionId), "the fault is in the decision log");
        assertEquals(once(FACTS, ARGUMENTS, DECISION, QUOTA, DECISION_LOG), timed());
        assertEquals(0, handlers.calls.size());
    }

    @Test
    void aDecisionThatCannotBeLoggedIsNotEnforced() throws IOException {
        Files.writeString(logFile, "");
        Gate unlogged = gate(pdp, settings, logFile.resolve("under-a-file.jsonl"));

        GateFault fault = assertInstanceOf(GateResult.Unavailable.class, unlogged.call(Callers.a1(), "wiki_read",
                Map.of("path", "notes/page.md"))).fault();

        assertEquals(GateFault.Kind.DECISION_LOG, fault.kind());
        assertTrue(fault.decisionId().isPresent(), "the record that could not be written is named");
        assertEquals(once(FACTS, ARGUMENTS, DECISION, QUOTA, DECISION_LOG), timed());
        assertEquals(0, handlers.calls.size());
    }

    /**
     * The quota step comes between the decision and its record: a call over its bucket (the policy's thread read
     * budget, a burst of 120, with no wait allowed and no time passing) is decided, charged nothing, logged and never
     * enforced or handled.
     */
    @Test
    void aCallOverItsQuotaIsLoggedAndStopsBeforeEnforce() throws IOException {
        quotas.properties.setMaxWait(Duration.ZERO);
        Gate gate = gate(pdp, settings, logFile);
        int admitted = 0;
        GateResult result = gate.call(Callers.a1(), "wiki_read", Map.of("path", "notes/page.md"));
        while (result instanceof GateResult.Completed) {
            admitted++;
            result = gate.call(Callers.a1(), "wiki_read", Map.of("path", "notes/page.md"));
        }

        GateResult.RateLimited limited = assertInstanceOf(GateResult.RateLimited.class, result, result::toString);
        assertEquals(120, admitted, "the burst of the thread read budget");
        assertTrue(Files.readString(logFile).contains(limited.decisionId()), "the refusal is in the decision log");
        Map<String, Long> expected = new TreeMap<>(Map.of(FACTS, 121L, ARGUMENTS, 121L, DECISION, 121L, QUOTA, 121L,
                DECISION_LOG, 121L, ENFORCE, 120L, HANDLER, 120L));
        assertEquals(expected, timed());
        assertEquals(120, handlers.calls.size());
    }

    /**
     * The fair share is held around the steps after the facts: a call whose caller has every place is logged and
     * refused without a decision, and a listing is refused without one and without a record.
     */
    @Test
    void aCallerOverItsFairShareIsRefusedAfterTheFactsWithoutADecision() throws IOException {
        quotas.properties.setInFlight(1);
        quotas.properties.setQueued(0);
        Gate gate = gate(pdp, settings, logFile);
        TrustedContextResolver pip = new TrustedContextResolver(new ThreadStateHost(), settings,
                new GatewayProperties());
        try (FairShare.Place held = share.enter(pip.resolve(Callers.a1()).facts())) {
            GateResult.RateLimited limited = assertInstanceOf(GateResult.RateLimited.class,
                    gate.call(Callers.a1(), "wiki_read", Map.of("path", "notes/page.md")));
            assertInstanceOf(Listing.RateLimited.class, gate.list(Callers.a1()));

            assertTrue(Files.readString(logFile).contains(limited.decisionId()), "the refusal is in the decision log");
            assertEquals(new TreeMap<>(Map.of(FACTS, 2L, DECISION_LOG, 1L)), timed());
            assertEquals(0, handlers.calls.size());
        }
    }
}
