package dev.gatehouse.gateway.gate;

import dev.gatehouse.facts.ArgumentEnvelope;
import dev.gatehouse.facts.ArgumentLimits;
import dev.gatehouse.gateway.telemetry.DecisionMetrics;
import dev.gatehouse.gateway.telemetry.GateSteps;
import dev.gatehouse.gateway.telemetry.Tracing;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatehouse.gateway.audit.DecisionLog;
import dev.gatehouse.gateway.audit.DecisionLogConfiguration;
import dev.gatehouse.gateway.context.AuthenticatedCaller;
import dev.gatehouse.gateway.auth.GatewayProperties;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.AgentSettingsStore;
import dev.gatehouse.gateway.context.OutsideAgentRegistration;
import dev.gatehouse.facts.Modes;
import dev.gatehouse.gateway.policy.api.Obligations;
import dev.gatehouse.gateway.policy.api.Quota;
import dev.gatehouse.gateway.context.TrustedContextResolver;
import dev.gatehouse.facts.ClosedSchemaArgumentCheck;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdp;
import dev.gatehouse.gateway.policy.TestBundle;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdpConfiguration;
import dev.gatehouse.gateway.quota.TestQuotas;
import dev.gatehouse.gateway.store.StoreUnavailableException;
import dev.gatehouse.gateway.support.Callers;
import dev.gatehouse.gateway.support.DecidingPdp;
import dev.gatehouse.gateway.support.PolicySources;
import dev.gatehouse.gateway.support.ServedTools;
import dev.gatehouse.gateway.support.InMemoryAgentDirectory;
import dev.gatehouse.gateway.support.MinimalArguments;
import dev.gatehouse.gateway.support.RecordingHandlers;
import dev.gatehouse.gateway.support.ThreadStateHost;
import dev.gatehouse.gateway.tools.ToolCall;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PEP against the real embedded PDP and the real bundle built from policies/ ({@code make bundle}): the gate
 * enforces what the policy decides, logs before any handler, and fails closed. Handlers and the host are test
 * doubles of their interfaces that record what reached them.
 */
class GateTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static PolicyDecisionPoint pdp;

    private final ThreadStateHost host = new ThreadStateHost();
    private final dev.gatehouse.gateway.support.InMemoryAgentDirectory settings =
            new dev.gatehouse.gateway.support.InMemoryAgentDirectory();
    private final RecordingHandlers handlers = new RecordingHandlers();
    private final TestQuotas quotas = new TestQuotas();
    private Path logFile;
    private Gate gate;

    @BeforeAll
    static void loadBundle() {
        pdp = new EmbeddedPdp(configuration(Path.of(System.getProperty("gatehouse.bundle.dir", "../target/bundle"),
                "bundle.tar.gz")));
        assertTrue(pdp.status().healthy(), "run `make bundle` first: " + pdp.status());
    }

    static EmbeddedPdpConfiguration configuration(Path bundle) {
        EmbeddedPdpConfiguration configuration = TestBundle.configuration(bundle);
        configuration.setPoolSize(1);
        return configuration;
    }

    @BeforeEach
    void build(@TempDir Path dir) {
        logFile = dir.resolve("decisions.jsonl");
        gate = gate(pdp, logFile);
        settings.put("a1", new AgentSettings(false, new AgentSettings.Project(true, Optional.of("pp-1")),
                new AgentSettings.Wiki(true, true)));
        settings.put("a2", new AgentSettings(false, new AgentSettings.Project(false, Optional.empty()),
                new AgentSettings.Wiki(true, true)));
    }

    private Gate gate(PolicyDecisionPoint engine, Path log) {
        ToolTables tables = new ToolTables(handlers.all(), new ClosedSchemaArgumentCheck());
        DecisionLogConfiguration configuration = new DecisionLogConfiguration();
        configuration.setPath(log.toString());
        return gate(tables, new TrustedContextResolver(host, settings, new GatewayProperties()), engine,
                new DecisionLog(configuration), quotas);
    }

    /** A gate with its own step pipeline, meters and tracing and the real quota enforcement of {@code quotas}. */
    static Gate gate(ToolTables tables, TrustedContextResolver pip, PolicyDecisionPoint engine, DecisionLog log,
            TestQuotas quotas) {
        DecisionMetrics metrics = new DecisionMetrics(new SimpleMeterRegistry());
        GatePipeline pipeline = new GatePipeline(engine, log,
                new GateSteps(new SimpleMeterRegistry(), new Tracing(OpenTelemetry.noop())), metrics, quotas.step());
        return new Gate(tables, pip, engine, pipeline, metrics, new ArgumentLimits(), quotas.fairShare());
    }

    /** The decision ids of the tools/call records written so far, in order. */
    private List<String> recorded() throws IOException {
        List<String> ids = new ArrayList<>();
        for (String line : Files.readAllLines(logFile)) {
            JsonNode record = JSON.readTree(line);
            if (record.path("method").asText().equals("tools/call")) {
                ids.add(record.path("decision_id").asText());
            }
        }
        return ids;
    }

    private GateFault.Kind unavailable(GateResult result) {
        return assertInstanceOf(GateResult.Unavailable.class, result).fault().kind();
    }

    /** Overload is a fault, not a denial: a busy engine's answer is unavailable, for calls it would allow too. */
    @Test
    void aBusyEngineIsUnavailableNotADenial() {
        PolicyDecisionPoint busy = new DecidingPdp(pdp, input -> new PolicyOutcome.Failed<>(
                new dev.gatehouse.gateway.policy.api.PolicyFault(dev.gatehouse.gateway.policy.api.PolicyFault.BUSY,
                        "no instance within 2000 ms")));
        assertEquals(GateFault.Kind.DECISION, unavailable(gate(busy, logFile).call(Callers.a1(), "wiki_read",
                Map.of("path", "page.md"))));
        assertEquals(List.of(), handlers.calls);
    }

    private List<String> denial(GateResult result) {
        return assertInstanceOf(GateResult.Denied.class, result).reasons().stream().map(Decision.Reason::code)
                .toList();
    }

    @Test
    void anAllowedCallReachesItsHandlerWithObligationsAfterTheRecord() throws IOException {
        GateResult result = gate.call(Callers.a1(), "wiki_read", Map.of("path", "notes/page.md"));
        GateResult.Completed completed = assertInstanceOf(GateResult.Completed.class, result);
        assertEquals(List.of(completed.decisionId()), recorded());
        ToolCall call = handlers.calls.get(0).getValue();
        assertEquals(Optional.of("agents/a1/notes/page.md"), call.obligations().wikiPath("path"));
        assertEquals("a1", call.context().logicalAgentId());
    }

    @Test
    void identityArgumentsAreDeniedAtAnyDepthAndReachNoHandler() throws IOException {
        assertEquals(List.of("identity_argument"),
                denial(gate.call(Callers.a1(), "wiki_read", Map.of("path", "page.md", "AgentId", "a2"))));
        assertTrue(denial(gate.call(Callers.a1(), "project_work_submit", Map.of("runId", "r1",
                "runRevision", "run:1", "assignmentRevision", "position:1",
                "result", Map.of("nested", Map.of("projectId", "p2")))))
                .contains("identity_argument"));
        assertEquals(List.of(), handlers.calls);
        assertEquals(2, recorded().size());
    }

    /** docs/domain.md §6: keys are matched by meaning, at any depth, for every tool, through the one gate. */
    @Test
    void identityKeysSpelledAnyWayAreDeniedThroughTheGate() {
        for (String key : List.of("agent_id", "agent-id", "Agent.Id", "agent id", "\uff41\uff47\uff45\uff4e\uff54\uff29\uff44",
                "agentId\u200b", "\u200bagentId", " agentId ", "AGENT\u2010ID", "agent\u00adId", "ａｇｅｎｔ＿ｉｄ",
                "ＡｇｅｎｔＩＤ")) {
            assertEquals(List.of("identity_argument"),
                    denial(gate.call(Callers.a1(), "wiki_read", Map.of("path", "page.md", key, "a2"))), key);
            assertTrue(denial(gate.call(Callers.a1(), "project_work_submit", Map.of("runId", "r1",
                    "runRevision", "run:1", "assignmentRevision", "position:1",
                    "result", Map.of("files", List.of(Map.of("meta", Map.of(key, "a2"))))))).contains("identity_argument"),
                    key);
        }
        assertInstanceOf(GateResult.Completed.class, gate.call(Callers.a1(), "t3_thread_send",
                Map.of("threadId", "t2", "message", "hi")), "threadId is business data for thread tools");
        assertEquals(List.of("schema"), denial(gate.call(Callers.a1(), "wiki_read",
                Map.of("path", "page.md", "agentName", "x"))), "agentName is not agentId");
        assertEquals(List.of(), handlers.calls.stream().filter(c -> !c.getKey().equals("t3_thread_send")).toList());
    }

    /** The last record written, as JSON, and its length in chars. */
    private JsonNode lastRecord(int[] length) throws IOException {
        List<String> lines = Files.readAllLines(logFile);
        String line = lines.get(lines.size() - 1);
        length[0] = line.length();
        return JSON.readTree(line);
    }

    /**
     * A page at the schema's longest is written whole, but the policy and the decision log get its length and
     * SHA-256 instead: the decision costs what a short page's does.
     */
    @Test
    void aLongPageReachesItsHandlerWholeButOnlyItsDigestReachesThePolicy() throws Exception {
        String page = "long page ".repeat(52_000);
        GateResult result = gate.call(Callers.a1(), "wiki_write", Map.of("path", "notes/big.md", "content", page));
        assertInstanceOf(GateResult.Completed.class, result);
        assertEquals(page, handlers.calls.get(0).getValue().arguments().get("content"));
        int[] length = new int[1];
        JsonNode input = lastRecord(length).get("input");
        assertTrue(input.at("/arguments/content").isNull(), input.toString());
        assertEquals(java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(page.getBytes(java.nio.charset.StandardCharsets.UTF_8))),
                input.get("omittedArguments").get("/content").get("sha256").textValue());
        assertEquals(page.length(), input.get("omittedArguments").get("/content").get("length").intValue());
        assertTrue(length[0] < 4_096, "record of " + length[0] + " chars");
    }

    /**
     * For every tool: arguments wider than its schema admits, however they are widened, are refused as a schema
     * problem, reach no handler, and neither the input nor the record grows with them.
     */
    @Test
    void argumentsBeyondTheirEnvelopeAreRefusedForEveryToolWithoutGrowingTheInput() throws Exception {
        int[] length = new int[1];
        for (Map.Entry<String, Map<String, Object>> example : MinimalArguments.load().entrySet()) {
            for (String shape : List.of("members", "items", "nested", "name")) {
                Map<String, Object> arguments = new java.util.LinkedHashMap<>(example.getValue());
                switch (shape) {
                    case "members" -> {
                        for (int i = 0; i < 20_000; i++) {
                            arguments.put("member" + i, "v");
                        }
                    }
                    case "items" -> arguments.put("list", java.util.Collections.nCopies(100_000, 1));
                    case "nested" -> arguments.put("nested", java.util.Collections.nCopies(9, Map.of()));
                    default -> arguments.put("n".repeat(50_000), 1);
                }
                List<String> reasons = denial(gate.call(Callers.a1(), example.getKey(), arguments));
                assertTrue(reasons.contains("schema"), example.getKey() + " " + shape + ": " + reasons);
                JsonNode input = lastRecord(length).get("input");
                assertEquals(ArgumentEnvelope.KEYWORD, input.at("/argumentErrors/0/keyword").textValue());
                assertTrue(length[0] < 4_096, example.getKey() + " " + shape + ": " + length[0] + " chars");
            }
        }
        assertEquals(List.of(), handlers.calls);
    }

    /**
     * For every field the policy reads of every tool: a value far longer than its schema admits (one run of letters,
     * thousands of segments, letters outside ASCII and outside the BMP) is denied as a schema problem, reaches no
     * handler, and neither the input nor the record carries it (its length and SHA-256 stand for it), nor the
     * {@code unicode} fact of its segments, so it costs what a short call does to decide; a wiki path is said to be
     * too long to read, not missing, and a thread id is not said to name a thread that was not found. Before, a
     * 900,000-byte path was evaluated whole (420 ms of engine CPU), and later a 340,000-character path outside ASCII
     * still reached the engine and the values file as its {@code unicode} fact, keyed by the whole path (17 ms of
     * engine CPU, and a member name the decision index could not read).
     */
    @Test
    void aReadValueFarLongerThanItsSchemaAdmitsIsNeitherEvaluatedNorLogged() throws Exception {
        int[] length = new int[1];
        int checked = 0;
        for (Map.Entry<String, Map<String, Object>> example : MinimalArguments.load().entrySet()) {
            ServedTool tool = ServedTools.table().find(example.getKey()).orElseThrow();
            for (String field : tool.row().readFields()) {
                for (String value : List.of("a".repeat(300_000) + ".md", "s/".repeat(150_000) + "p.md",
                        "\u00e9".repeat(300_000), "\u4e2d/".repeat(100_000) + "\ud83d\ude00".repeat(50_000))) {
                    Map<String, Object> arguments = new java.util.LinkedHashMap<>(example.getValue());
                    arguments.put(field, value);
                    String where = example.getKey() + " " + field;
                    List<String> reasons = denial(gate.call(Callers.a1(), example.getKey(), arguments));
                    assertTrue(reasons.contains("schema"), where + ": " + reasons);
                    // Not looked up, so not said to be missing: the schema check's error is the reason.
                    assertFalse(reasons.contains("thread_not_found"), where + ": " + reasons);
                    JsonNode input = lastRecord(length).get("input");
                    assertTrue(input.get("arguments").get(field).isNull(), where);
                    assertTrue(input.get("omittedArguments").path("/" + field).path("length").asLong() >= 300_000,
                            where);
                    assertTrue(length[0] < 8_192, where + ": " + length[0] + " chars");
                    // Nor described: the segments of a path not sent are no fact (a1's id is plain ASCII).
                    assertEquals(0, input.get("unicode").size(), where + ": " + input.get("unicode"));
                    if (tool.row().pathFields().contains(field)) {
                        assertTrue(lastRecord(length).toString().contains(field
                                + ": the path is longer than any path the schema admits, so it was not read"), where);
                    }
                    checked++;
                }
            }
        }
        assertEquals(52, checked, "13 read fields, 4 values each");
        assertEquals(List.of(), handlers.calls);
    }

    /**
     * An unknown name longer than every served name is decided and logged under its digest: still {@code
     * unknown_tool}, and neither the input nor the record grows with it. A name as long as the longest served one,
     * a served name, and a short unknown one are decided as given.
     */
    @Test
    void aToolNameLongerThanEveryServedNameIsDecidedUnderItsDigest() throws Exception {
        int[] length = new int[1];
        int longest = ServedTools.table().all().stream().mapToInt(t -> t.name().length()).max().orElseThrow();
        for (String name : List.of("x".repeat(900_000), "w".repeat(longest + 1), "\u00e9".repeat(300_000))) {
            assertEquals(List.of("unknown_tool"), denial(gate.call(Callers.a1(), name, Map.of())));
            JsonNode record = lastRecord(length);
            String digest = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(name.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            assertEquals("sha256:" + digest, record.at("/input/tool").textValue());
            assertEquals("sha256:" + digest, record.get("tool").textValue());
            assertTrue(length[0] < 4_096, length[0] + " chars");
        }
        for (String name : List.of("w".repeat(longest), "no_such_tool")) {
            assertEquals(List.of("unknown_tool"), denial(gate.call(Callers.a1(), name, Map.of())));
            assertEquals(name, lastRecord(length).at("/input/tool").textValue());
        }
        assertInstanceOf(GateResult.Completed.class, gate.call(Callers.a1(), "wiki_read", Map.of("path", "a.md")));
        assertEquals("wiki_read", lastRecord(length).at("/input/tool").textValue());
        assertEquals(1, handlers.calls.size());
    }

    /** A JSON null is a value like any other, wherever it stands, for every tool: decided, never a fault. */
    @Test
    void nullArgumentsAreDecidedForEveryTool() {
        MinimalArguments.load().forEach((tool, example) -> {
            for (String where : List.of("top", "nested", "items", "declared")) {
                GateResult result = gate.call(Callers.a1(), tool, ArgumentEnvelopeTest.withNull(example, where));
                assertTrue(result instanceof GateResult.Denied || result instanceof GateResult.Completed,
                        tool + " " + where + ": " + result);
            }
        });
    }

    /** Beyond the envelope the fields the policy reads are still sent: an escaping path is still named. */
    @Test
    void aWideCallStillHasItsPathsChecked() {
        Map<String, Object> arguments = new java.util.LinkedHashMap<>(Map.of("path", "../a2/page.md", "content", "x"));
        for (int i = 0; i < 1_000; i++) {
            arguments.put("member" + i, "v");
        }
        List<String> reasons = denial(gate.call(Callers.a1(), "wiki_write", arguments));
        assertTrue(reasons.contains("schema") && reasons.size() > 1, reasons.toString());
    }

    /** docs/domain.md §1, §7: an outside agent whose token says sub "a1" is not the thread agent a1. */
    @Test
    void anOutsideAgentNamedLikeAThreadAgentGetsNoneOfItsSubtreeSettingsOrBinding() {
        for (String issuer : List.of("https://issuer.test", "a1", "https://issuer.test/agents")) {
            for (String subject : List.of("a1", "A1", "agents/a1", "../a1", "ａ１")) {
                AuthenticatedCaller caller = new AuthenticatedCaller(
                        new dev.gatehouse.gateway.auth.Authenticated.OutsideAgent(issuer, subject, "full-access"),
                        Optional.empty());
                assertEquals(List.of("capability_missing"),
                        denial(gate.call(caller, "wiki_read", Map.of("path", "page.md"))), subject);
                assertEquals(List.of("capability_missing", "project_not_bound"),
                        denial(gate.call(caller, "project_work_list", Map.of())), "nor a1's binding");
            }
        }
        settings.register(new OutsideAgentRegistration("https://issuer.test", "a1", "oa-partner", Optional.empty()),
                new AgentSettings(false, new AgentSettings.Project(true, Optional.of("pp-partner")),
                        new AgentSettings.Wiki(true, true)));
        AuthenticatedCaller registered = Callers.outside("a1", "full-access", Optional.empty());
        assertInstanceOf(GateResult.Completed.class, gate.call(registered, "wiki_write",
                Map.of("path", "page.md", "content", "x")));
        ToolCall call = handlers.calls.get(handlers.calls.size() - 1).getValue();
        assertEquals(Optional.of("outside-agents/oa-partner/page.md"), call.obligations().wikiPath("path"));
        assertEquals("oa-partner", call.context().logicalAgentId());
        assertEquals(Optional.of("pp-partner"), call.context().projectServiceProjectId());
        for (String escape : List.of("../../agents/a1/page.md", "../a1/page.md", "..", "../../agents/a1")) {
            assertTrue(denial(gate.call(registered, "wiki_read", Map.of("path", escape))).contains("path_invalid"),
                    escape);
        }
    }

    @Test
    void aRegistrationThatSharesAThreadAgentsSubtreeSaysSoAndThePolicyAdmitsIt() {
        settings.register(new OutsideAgentRegistration("https://issuer.test", "partner", "oa-partner",
                Optional.of("a1")), new AgentSettings(false, new AgentSettings.Project(false, Optional.empty()),
                new AgentSettings.Wiki(true, false)));
        AuthenticatedCaller partner = Callers.outside("partner", "full-access", Optional.empty());
        assertInstanceOf(GateResult.Completed.class, gate.call(partner, "wiki_read", Map.of("path", "page.md")));
        ToolCall call = handlers.calls.get(handlers.calls.size() - 1).getValue();
        assertEquals(Optional.of("agents/a1/page.md"), call.obligations().wikiPath("path"));
        assertEquals(Optional.of("agents/a1"), call.obligations().wikiRoot());
        assertEquals(Optional.empty(), call.context().projectServiceProjectId(), "a1's project binding is not shared");
        assertEquals(List.of("capability_missing"), denial(gate.call(partner, "wiki_write",
                Map.of("path", "page.md", "content", "x"))), "nor a1's settings");
        assertTrue(denial(gate.call(partner, "wiki_read", Map.of("path", "../a2/page.md"))).contains("path_escape"));
    }

    @Test
    void unknownAndLookAlikeNamesAreDecidedByThePolicy() throws IOException {
        for (String name : List.of("no_such_tool", "WIKI_READ", "wiki_read ", "wiki_reаd")) {
            assertEquals(List.of("unknown_tool"), denial(gate.call(Callers.a1(), name, Map.of("path", "page.md"))),
                    name);
        }
        assertEquals(4, recorded().size());
        assertEquals(List.of(), handlers.calls);
    }

    @Test
    void aCapabilityTurnedOffAndOnAppliesToTheNextCall() {
        assertInstanceOf(GateResult.Completed.class, gate.call(Callers.a1(), "project_work_list", Map.of()));
        settings.put("a1", new AgentSettings(false, new AgentSettings.Project(false, Optional.of("pp-1")),
                new AgentSettings.Wiki(true, true)));
        assertEquals(List.of("capability_missing"), denial(gate.call(Callers.a1(), "project_work_list", Map.of())));
        settings.put("a1", new AgentSettings(false, new AgentSettings.Project(false, Optional.empty()),
                new AgentSettings.Wiki(true, true)));
        assertEquals(List.of("capability_missing", "project_not_bound"), denial(gate.call(Callers.a1(),
                "project_work_list", Map.of())), "every code that applies");
        settings.put("a1", new AgentSettings(false, new AgentSettings.Project(true, Optional.of("pp-1")),
                new AgentSettings.Wiki(true, true)));
        assertInstanceOf(GateResult.Completed.class, gate.call(Callers.a1(), "project_work_list", Map.of()));
    }

    @Test
    void aThreadWhoseRunEndedReadsButCannotWrite() {
        assertInstanceOf(GateResult.Completed.class, gate.call(Callers.a1Ended(), "wiki_read",
                Map.of("path", "page.md")));
        assertEquals(List.of("parent_not_active"), denial(gate.call(Callers.a1Ended(), "wiki_write",
                Map.of("path", "page.md", "content", "x"))));
    }

    @Test
    void aSupervisedPlanModeThreadLaunchesWithinItsModesOnly() {
        GateResult within = gate.call(Callers.a2(), "t3_thread_launch", Map.of("projectId", "proj-1",
                "prompt", "go"));
        ToolCall call = assertInstanceOf(GateResult.Completed.class, within) != null
                ? handlers.calls.get(0).getValue() : null;
        assertEquals(Map.of("runtimeMode", "approval-required", "interactionMode", "plan"),
                call.obligations().modes());
        assertEquals(List.of("runtime_mode_escalation_denied"), denial(gate.call(Callers.a2(), "t3_thread_launch",
                Map.of("projectId", "proj-1", "prompt", "go", "runtimeMode", "full-access"))));
        assertEquals(List.of("interaction_mode_escalation_denied"), denial(gate.call(Callers.a2(),
                "t3_thread_launch", Map.of("projectId", "proj-1", "prompt", "go", "interactionMode", "default"))));
    }

    @Test
    void targetThreadsAreCheckedAgainstTheCallersLimitsAndFailClosed() {
        assertInstanceOf(GateResult.Completed.class, gate.call(Callers.a1(), "t3_thread_send",
                Map.of("threadId", "t2", "message", "hi")));
        assertEquals(List.of("runtime_mode_escalation_denied", "interaction_mode_escalation_denied"),
                denial(gate.call(Callers.a2(), "t3_thread_send", Map.of("threadId", "t1", "message", "hi"))));
        assertEquals(List.of("thread_not_found"), denial(gate.call(Callers.a1(), "t3_thread_send",
                Map.of("threadId", "t404", "message", "hi"))));
        host.failing.add("t2");
        assertEquals(List.of("unavailable"), denial(gate.call(Callers.a1(), "t3_thread_send",
                Map.of("threadId", "t2", "message", "hi"))));
    }

    /** A host that is down is a fault: writes say unavailable (no blame on the caller), reads go on. */
    @Test
    void theCallersThreadLookupFailingIsUnavailableNotParentNotActive() {
        host.failing.add("t1");
        assertEquals(List.of("unavailable"), denial(gate.call(Callers.a1(), "wiki_write",
                Map.of("path", "page.md", "content", "x"))));
        assertEquals(List.of("unavailable"), denial(gate.call(Callers.a1(), "t3_thread_launch",
                Map.of("projectId", "proj-1", "prompt", "go", "runtimeMode", "full-access"))));
        assertInstanceOf(GateResult.Completed.class, gate.call(Callers.a1(), "wiki_read", Map.of("path", "page.md")));
        host.failing.clear();
        host.threads.remove("t1");
        assertEquals(List.of("parent_not_active"), denial(gate.call(Callers.a1(), "wiki_write",
                Map.of("path", "page.md", "content", "x"))));
    }

    /** Names in any script are judged from the categories the PEP reports, so the cost does not depend on the script. */
    @Test
    void namesInOtherScriptsAreDecidedFromReportedCategories() {
        for (String path : List.of("Привет/страница.md", "日本語/ノート.md", "مرحبا.md", "Καλημέρα.md", "١٢٣.md")) {
            assertInstanceOf(GateResult.Completed.class, gate.call(Callers.a1(), "wiki_read", Map.of("path", path)),
                    path);
        }
        // Combining marks are not letters (docs/domain.md §7), so a Devanagari word with vowel signs is refused.
        for (String path : List.of("a:b.md", "x\u200b.md", "a\u2024b.md", "Привет\uff0f.md", "😀.md", "नमस्ते.md")) {
            assertEquals(List.of("path_invalid"), denial(gate.call(Callers.a1(), "wiki_read", Map.of("path", path))),
                    path);
        }
    }

    /** The header is sent for thread callers too; the policy lets it narrow outside agents only. */
    @Test
    void aModeLimitHeaderDoesNotNarrowAThread() {
        AuthenticatedCaller a1 = new AuthenticatedCaller(Callers.a1().identity(),
                Optional.of(new Modes("approval-required", "plan")));
        assertInstanceOf(GateResult.Completed.class, gate.call(a1, "t3_thread_launch",
                Map.of("projectId", "proj-1", "prompt", "go", "runtimeMode", "full-access")));
    }

    /**
     * A ceiling or T3-Mode-Limit name the policy does not know reaches the gate as a fact (the transport checks only
     * its syntax): every call is denied with the policy's own code and logged, and the list is empty.
     */
    @Test
    void unknownCeilingsAndModeLimitNamesAreDeniedByThePolicyForEveryTool() throws Exception {
        Map<String, Map<String, Object>> minimal = MinimalArguments.load();
        Map<AuthenticatedCaller, String> callers = Map.of(
                Callers.outside("o1", "superuser", Optional.empty()), "ceiling_unknown",
                Callers.outside("o2", "FULL-ACCESS", Optional.empty()), "ceiling_unknown",
                Callers.outside("o3", "full-access", Optional.of(new Modes("turbo", "default"))), "mode_limit_unknown",
                new AuthenticatedCaller(Callers.a1().identity(), Optional.of(new Modes("auto", "chat"))),
                "mode_limit_unknown");
        int calls = 0;
        for (Map.Entry<AuthenticatedCaller, String> caller : callers.entrySet()) {
            assertEquals(List.of(), assertInstanceOf(Listing.Listed.class, gate.list(caller.getKey())).tools(),
                    caller.toString());
            for (Map.Entry<String, Map<String, Object>> tool : minimal.entrySet()) {
                assertTrue(denial(gate.call(caller.getKey(), tool.getKey(), tool.getValue()))
                        .contains(caller.getValue()), caller + " " + tool.getKey());
                calls++;
            }
        }
        assertEquals(List.of(), handlers.calls);
        assertEquals(calls, recorded().size(), "every denial is in the decision log");
    }

    /** docs/domain.md §4: an agent whose settings bind no project is refused by the policy, logged, before any handler. */
    @Test
    void aProjectToolWithoutABoundProjectIsDeniedByThePolicyAndLogged() throws Exception {
        settings.put("a1", new AgentSettings(false, new AgentSettings.Project(true, Optional.empty()),
                new AgentSettings.Wiki(true, true)));
        for (Map.Entry<String, Map<String, Object>> tool : MinimalArguments.load().entrySet()) {
            if (tool.getKey().startsWith("project_")) {
                assertEquals(List.of("project_not_bound"), denial(gate.call(Callers.a1(), tool.getKey(),
                        tool.getValue())), tool.getKey());
                int[] length = new int[1];
                assertEquals("project_not_bound", lastRecord(length).at("/result/reasons/0/code").asText());
            }
        }
        assertEquals(List.of(), handlers.calls);
        assertTrue(assertInstanceOf(Listing.Listed.class, gate.list(Callers.a1())).tools().stream()
                .map(ServedTool::name).noneMatch(name -> name.startsWith("project_")));
        assertInstanceOf(GateResult.Completed.class, gate.call(Callers.a1(), "wiki_read", Map.of("path", "p.md")),
                "other tools need no binding");
    }

    @Test
    void readOnlyAndNarrowedOutsideAgents() {
        AuthenticatedCaller readOnly = Callers.outside("o1", "read-only", Optional.empty());
        assertInstanceOf(GateResult.Completed.class, gate.call(readOnly, "t3_thread_list", Map.of()));
        assertTrue(denial(gate.call(readOnly, "t3_thread_send", Map.of("threadId", "t1", "message", "x")))
                .contains("read_only_client"));
        AuthenticatedCaller narrowed = Callers.outside("o2", "full-access", Optional.of(new Modes("auto", "plan")));
        assertEquals(List.of("runtime_mode_escalation_denied"), denial(gate.call(narrowed, "t3_thread_launch",
                Map.of("projectId", "proj-1", "prompt", "go", "runtimeMode", "full-access"))));
    }

    @Test
    void theListIsExactlyTheToolsWhoseCallsAreAllowedForEachCallerKind() throws Exception {
        Map<String, Map<String, Object>> minimal = MinimalArguments.load();
        for (AuthenticatedCaller caller : List.of(Callers.a1(), Callers.a2(), Callers.a1Ended(),
                Callers.outside("o1", "read-only", Optional.empty()),
                Callers.outside("o2", "auto", Optional.of(new Modes("approval-required", "plan"))))) {
            Set<String> listed = new TreeSet<>(assertInstanceOf(Listing.Listed.class, gate.list(caller)).tools().stream().map(ServedTool::name).toList());
            Set<String> allowed = new TreeSet<>();
            minimal.forEach((tool, arguments) -> {
                if (gate.call(caller, tool, arguments) instanceof GateResult.Completed) {
                    allowed.add(tool);
                }
            });
            assertEquals(allowed, listed, caller.toString());
        }
    }

    @Test
    void everySchemasExampleSatisfiesIt() throws Exception {
        ToolTable table = ServedTools.table();
        Map<String, Map<String, Object>> minimal = MinimalArguments.load();
        assertEquals(new TreeSet<>(PolicySources.accessTable().keySet()), minimal.keySet());
        minimal.forEach((tool, arguments) -> assertEquals(List.of(),
                table.find(tool).orElseThrow().schema().validator().check(arguments), tool));
    }

    @Test
    void aPdpThatCannotDecideIsUnavailableForEveryCallAndForTheList() {
        Gate broken = gate(new EmbeddedPdp(configuration(Path.of("/nonexistent/bundle.tar.gz"))), logFile);
        assertEquals(GateFault.Kind.DECISION, unavailable(broken.call(Callers.a1(), "t3_thread_list", Map.of())));
        assertInstanceOf(Listing.Unavailable.class, broken.list(Callers.a1()));
        assertEquals(List.of(), handlers.calls);
    }

    @Test
    void aStoreThatDoesNotAnswerDecidesNeitherTheListNorACall() {
        AgentSettingsStore down = new AgentSettingsStore() {
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
        };
        DecisionLogConfiguration configuration = new DecisionLogConfiguration();
        configuration.setPath(logFile.toString());
        Gate unreadable = gate(new ToolTables(handlers.all(), new ClosedSchemaArgumentCheck()),
                new TrustedContextResolver(host, new InMemoryAgentDirectory(down), new GatewayProperties()), pdp,
                new DecisionLog(configuration), quotas);
        Listing listing = unreadable.list(Callers.a1());
        assertEquals(GateFault.Kind.FACTS, assertInstanceOf(Listing.Unavailable.class, listing).fault().kind());
        assertEquals(GateFault.Kind.FACTS, unavailable(unreadable.call(Callers.a1(), "t3_thread_list", Map.of())));
        assertEquals(Optional.empty(), ((GateResult.Unavailable) unreadable.call(Callers.a1(), "t3_thread_list",
                Map.of())).fault().decisionId(), "nothing was decided, so no record is named");
        assertEquals(List.of(), handlers.calls);
    }

    @Test
    void aFailedDecisionLogWriteIsUnavailableAndRunsNothing() throws IOException {
        Files.writeString(logFile, "");
        Gate unlogged = gate(pdp, logFile.resolve("under-a-file.jsonl"));
        assertEquals(GateFault.Kind.DECISION_LOG, unavailable(unlogged.call(Callers.a1(), "t3_thread_list", Map.of())));
        assertInstanceOf(Listing.Unavailable.class, unlogged.list(Callers.a1()));
        assertEquals(List.of(), handlers.calls);
    }

    @Test
    void anAllowWithoutTheRowsObligationsIsNotEnforced() {
        PolicyDecisionPoint allowsWithoutObligations = allowing(Obligations.NONE);
        assertEquals(List.of("policy_unavailable"), denial(gate(allowsWithoutObligations, logFile).call(Callers.a1(),
                "wiki_read", Map.of("path", "page.md"))));
        assertEquals(List.of(), handlers.calls);
    }

    private static final Optional<Quota> QUOTA = Optional.of(new Quota("thread/read/a1", "read", 600, 100));

    /**
     * Obligations are matched to the row by field: one for another field, only some of them, or the paths without
     * the subtree they lie in, is not enough, even with a quota.
     */
    @Test
    void anAllowWithObligationsForOtherFieldsIsNotEnforced() {
        for (Obligations wrong : List.of(
                new Obligations(Map.of(), Map.of("other", "agents/a1/page.md"), Optional.of("agents/a1"), QUOTA),
                new Obligations(Map.of(), Map.of("path", "agents/a1/page.md"), Optional.empty(), QUOTA),
                new Obligations(Map.of("runtimeMode", "auto"), Map.of(), Optional.empty(), QUOTA))) {
            Gate gated = gate(allowing(wrong), logFile);
            assertEquals(List.of("policy_unavailable"), denial(gated.call(Callers.a1(), "wiki_read",
                    Map.of("path", "page.md"))));
            assertEquals(List.of("policy_unavailable"), denial(gated.call(Callers.a1(), "t3_thread_launch",
                    Map.of("projectId", "proj-1", "prompt", "go"))));
        }
        assertEquals(List.of(), handlers.calls);
    }

    /** A quota obligation for the caller of {@code input}, of {@code rate} tokens a minute and {@code burst}. */
    private static Quota quota(DecisionInput input, long rate, long burst) {
        return new Quota("thread/read/" + input.caller().logicalAgentId(), "read", rate, burst);
    }

    /** wiki_read's row obligations for a1's page.md, with {@code quota} or none. */
    private static Obligations wikiRead(Optional<Quota> quota) {
        return new Obligations(Map.of(), Map.of("path", "agents/a1/page.md"), Optional.of("agents/a1"), quota);
    }

    /**
     * Fail closed (docs/domain.md §10): an allow that carries every obligation of its row but no quota is refused
     * {@code policy_unavailable}; a gap in the quota data never lets a call through unlimited. The same allow with
     * a quota runs, so the quota is what was missing.
     */
    @Test
    void anAllowWithoutAQuotaIsPolicyUnavailableAndRunsNothing() {
        Gate unquoted = gate(allowing(wikiRead(Optional.empty())), logFile);
        assertEquals(List.of("policy_unavailable"), denial(unquoted.call(Callers.a1(), "wiki_read",
                Map.of("path", "page.md"))));
        assertEquals(List.of(), handlers.calls);
        Gate quoted = gate(new DecidingPdp(pdp, input -> new PolicyOutcome.Decided<>(new Decision(true, List.of(),
                wikiRead(Optional.of(quota(input, 60, 5))), "rev", 1))), logFile);
        assertInstanceOf(GateResult.Completed.class, quoted.call(Callers.a1(), "wiki_read",
                Map.of("path", "page.md")));
        assertEquals(1, handlers.calls.size());
    }

    /**
     * A quota obligation of the wrong shape is a malformed decision, a {@code DECISION} fault (answered
     * {@code unavailable}): refused, never run, never charged.
     */
    @Test
    void aMalformedQuotaObligationIsPolicyUnavailable() {
        Gate malformed = gate(new DecidingPdp(pdp, input -> dev.gatehouse.gateway.policy.DecisionParser.decision(
                new dev.gatehouse.gateway.policy.ResultSet(JSON.valueToTree(List.of(Map.of("result", Map.of(
                        "allow", true, "reasons", List.of(), "obligations", Map.of("wikiPaths",
                                Map.of("path", "agents/a1/page.md"), "wikiRoot", "agents/a1", "quota",
                                Map.of("bucket", "thread/read/a1", "class", "read", "ratePerMinute", 0,
                                        "burst", 5)))))), "rev"), System.nanoTime())), logFile);
        assertEquals(GateFault.Kind.DECISION, unavailable(malformed.call(Callers.a1(), "wiki_read",
                Map.of("path", "page.md"))));
        assertEquals(List.of(), handlers.calls);
        assertEquals(0, quotas.meters.find(dev.gatehouse.gateway.quota.QuotaMetrics.CHARGES).counters().size());
    }

    /**
     * Over its quota a call is {@code rate_limited} with when to retry, logged with its own code, and never reaches
     * its handler; another agent's bucket is its own. A rate of one a minute and a burst of one: the second call
     * waits {@code max-wait} (250 ms of the test time) for nothing and is told the rest of the minute.
     */
    @Test
    void aCallOverItsQuotaIsRateLimitedAndNeverReachesItsHandler() throws IOException {
        Gate limited = gate(new DecidingPdp(pdp, input -> new PolicyOutcome.Decided<>(new Decision(true, List.of(),
                new Obligations(Map.of(), Map.of("path", "agents/" + input.caller().logicalAgentId() + "/page.md"),
                        Optional.of("agents/" + input.caller().logicalAgentId()), Optional.of(quota(input, 1, 1))),
                "rev", 1))), logFile);
        assertInstanceOf(GateResult.Completed.class, limited.call(Callers.a1(), "wiki_read",
                Map.of("path", "page.md")));
        GateResult.RateLimited over = assertInstanceOf(GateResult.RateLimited.class,
                limited.call(Callers.a1(), "wiki_read", Map.of("path", "page.md")));
        assertEquals("rate_limited", over.reason().code());
        assertEquals(59_750, over.retryAfterMs());
        assertEquals(1, handlers.calls.size());
        JsonNode record = lastRecord(new int[1]);
        assertEquals(over.decisionId(), record.path("decision_id").asText());
        assertEquals("rate_limited", record.path("quota").path("code").asText());
        assertEquals("thread/read/a1", record.path("quota").path("bucket").asText());
        assertEquals(59_750, record.path("quota").path("retryAfterMs").asLong());
        assertInstanceOf(GateResult.Completed.class, limited.call(Callers.a2(), "wiki_read",
                Map.of("path", "page.md")));
        assertEquals(2, handlers.calls.size());
    }

    /** Denials and tools/list are never charged; an allowed call is, once, to its row's bucket class. */
    @Test
    void onlyAllowedCallsAreCharged() {
        for (int i = 0; i < 50; i++) {
            assertInstanceOf(GateResult.Denied.class, gate.call(Callers.a1(), "wiki_read",
                    Map.of("path", "../a2/page.md")));
            assertInstanceOf(Listing.Listed.class, gate.list(Callers.a1()));
        }
        assertEquals(0, quotas.meters.find(dev.gatehouse.gateway.quota.QuotaMetrics.CHARGES).counters().size());
        assertInstanceOf(GateResult.Completed.class, gate.call(Callers.a1(), "wiki_read", Map.of("path", "page.md")));
        assertEquals(1.0, quotas.meters.get(dev.gatehouse.gateway.quota.QuotaMetrics.CHARGES).tag("class", "read")
                .tag("outcome", "admitted").tag("budget", "shared").counter().count());
    }

    private PolicyDecisionPoint allowing(Obligations obligations) {
        return new DecidingPdp(pdp, input -> new PolicyOutcome.Decided<>(new Decision(true, List.of(), obligations,
                "rev", 1)));
    }
}
