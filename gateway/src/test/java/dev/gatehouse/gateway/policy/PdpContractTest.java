package dev.gatehouse.gateway.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.facts.DecisionInputMapper;
import dev.gatehouse.facts.PolicyJson;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.gateway.policy.GoldenCases.GoldenCase;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.facts.NoticeInput;
import dev.gatehouse.gateway.policy.api.PdpStatus;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.VisibleTools;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

/**
 * The one contract every PDP engine passes (style card 12): the whole golden decision matrix replayed through the
 * engine, each decision compared in full with {@code expected} (allow, reasons in order with code and message,
 * obligations); the same for visible_tools of every distinct golden caller, compared with {@code opa eval} on the
 * Rego sources. Parity between engines is this suite passing for each of them.
 *
 * <p>A case the typed API can express is sent through {@link dev.gatehouse.gateway.policy.api.PolicyDecisionPoint
 * #decide(DecisionInput)}, after checking that the mapper reproduces the golden input exactly; the others (made to
 * test the policy's own guards) go in as JSON through the same evaluate-and-parse path.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class PdpContractTest {

    /** The engine under test, started once per class. */
    protected abstract PolicyDecisionPoint pdp();

    /** The revision it serves, with the evaluation path for inputs the typed API cannot express. */
    private EvaluatingPolicy revision() {
        return (EvaluatingPolicy) pdp().serving().orElseThrow(() -> new AssertionError("no revision: "
                + pdp().status()));
    }

    /** The name {@link PdpStatus#engine()} must report. */
    protected abstract String engineName();

    @Test
    void theMatrixIsThere() {
        List<GoldenCase> cases = GoldenCases.all();
        assertFalse(cases.isEmpty(), "no policy-tests/golden/*/cases.json found");
        assertEquals(cases.size(), cases.stream().map(GoldenCase::id).distinct().count(), "case ids are unique");
    }

    @TestFactory
    Stream<DynamicTest> everyGoldenDecisionMatches() {
        return GoldenCases.all().stream().map(c -> DynamicTest.dynamicTest(c.id(), () -> {
            Optional<DecisionInput> typed = c.typed();
            PolicyOutcome<Decision> outcome = typed.isPresent()
                    ? pdp().decide(typed.get())
                    : revision().decide(c.input(), System.nanoTime());
            Decision decision = (Decision) assertInstanceOf(PolicyOutcome.Decided.class, outcome,
                    () -> c.id() + " was not decided: " + outcome).value();
            assertEquals(c.expected(), DecisionJson.decision(decision), c.id());
            assertEquals(pdp().status().bundleRevision().orElseThrow(), decision.bundleRevision());
        }));
    }

    /** The notice entry point: every golden case of its files, through the same evaluate-and-parse path. */
    @TestFactory
    Stream<DynamicTest> everyGoldenNoticeDecisionMatches() {
        List<GoldenCase> cases = GoldenCases.at(Entrypoint.NOTICE);
        assertFalse(cases.isEmpty(), "no golden cases at gatehouse/authz/notice");
        return cases.stream().map(c -> DynamicTest.dynamicTest(c.id(), () -> {
            Optional<NoticeInput> typed = GoldenCases.typedNotice(c);
            PolicyOutcome<Decision> outcome = typed.isPresent()
                    ? pdp().notice(typed.get())
                    : revision().notice(c.input(), System.nanoTime());
            Decision decision = (Decision) assertInstanceOf(PolicyOutcome.Decided.class, outcome,
                    () -> c.id() + " was not decided: " + outcome).value();
            assertEquals(c.expected(), DecisionJson.decision(decision), c.id());
        }));
    }

    /** The typed notice entry point is the one notice delivery uses: most golden notices must go through it. */
    @Test
    void mostGoldenNoticesAreExpressibleAsTypedInput() {
        List<GoldenCase> cases = GoldenCases.at(Entrypoint.NOTICE);
        long typed = cases.stream().filter(c -> GoldenCases.typedNotice(c).isPresent()).count();
        assertTrue(typed * 2 > cases.size(), typed + " of " + cases.size() + " golden notices are typed");
    }

    @Test
    void everyGoldenCallerSeesWhatOpaSees() {
        Map<ObjectNode, DecisionInput> listings = new LinkedHashMap<>();
        for (GoldenCase c : GoldenCases.all()) {
            c.typed().ifPresent(typed -> {
                DecisionInput listing = DecisionInput.forListing(typed.caller());
                listings.putIfAbsent(DecisionInputMapper.forListing(listing), listing);
            });
        }
        assertFalse(listings.isEmpty());
        ArrayNode inputs = PolicyJson.MAPPER.createArrayNode();
        listings.keySet().forEach(inputs::add);
        JsonNode expected = OpaCli.eval("[tools | some x in input; tools := data.gatehouse.authz.visible_tools "
                + "with input as x]", inputs);
        List<JsonNode> actual = new ArrayList<>();
        for (DecisionInput listing : listings.values()) {
            PolicyOutcome<VisibleTools> outcome = pdp().visibleTools(listing);
            VisibleTools tools = (VisibleTools) assertInstanceOf(PolicyOutcome.Decided.class, outcome,
                    () -> "visible_tools not decided: " + outcome).value();
            actual.add(DecisionJson.visibleTools(tools));
        }
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < actual.size(); i++) {
            assertEquals(expected.get(i), actual.get(i), "visible_tools for " + inputs.get(i).get("caller"));
        }
    }

    @Test
    void statusIsHealthy() {
        PdpStatus status = pdp().status();
        assertEquals(engineName(), status.engine());
        assertTrue(status.healthy(), () -> "unhealthy: " + status);
    }
}
