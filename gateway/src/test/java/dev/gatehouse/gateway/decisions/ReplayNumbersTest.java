package dev.gatehouse.gateway.decisions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.facts.CallerFacts;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.facts.DecisionInputMapper;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.facts.ThreadShell;
import dev.gatehouse.gateway.policy.TestBundle;
import dev.gatehouse.gateway.policy.api.KeptRevision;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdp;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A logged decision whose arguments hold a number a double cannot keep is replayed on that very number (found by a
 * new user's trial: {@code {"path":1e400}} was logged as {@code 1E+400}, read back as Infinity and sent to the
 * policy as the string "Infinity", so the console called the gateway's own decision one its revision "would
 * change"). The rest of the kind too: overflow either way, underflow, more digits than a double keeps, trailing
 * zeros.
 */
class ReplayNumbersTest {

    private static final List<String> NUMBERS = List.of("1E+400", "-1E+400", "1E-400", "1.50",
            "123456789012345678901234567890.123", "0.1000000000000000055511151231257827");
    private static final CallerFacts CALLER = new CallerFacts("thread", "a1", Optional.of("t1"), Optional.of("pi"),
            Optional.of(ThreadShell.found(false, true, Optional.of("pi"), "full-access", "default")), Optional.empty(),
            new CallerFacts.Settings(true, true, true, true, true), Optional.empty());

    private static EmbeddedPdp pdp;

    @BeforeAll
    static void start() {
        pdp = new EmbeddedPdp(TestBundle.configuration(TestBundle.freshBundle()));
    }

    @AfterAll
    static void stop() {
        pdp.close();
    }

    @Test
    void aLoggedNumberIsReplayedAsItWasDecided() {
        KeptRevision serving = pdp.kept().get(0);
        for (String number : NUMBERS) {
            ObjectNode input = DecisionInputMapper.forCall(new DecisionInput(Optional.of("wiki_read"),
                    Optional.of(Map.of("path", new BigDecimal(number))), List.of(), CALLER, Map.of()));
            JsonNode result = ((PolicyOutcome.Decided<JsonNode>) assertInstanceOf(PolicyOutcome.Decided.class,
                    serving.evaluate("gatehouse/authz/decision", input))).value();
            assertTrue(result.path("reasons").toString().contains("path_invalid"), number + ": " + result);
            ObjectNode record = PolicyJson.MAPPER.createObjectNode();
            UUID id = UUID.randomUUID();
            record.put("decision_id", id.toString()).put("path", "gatehouse/authz/decision");
            record.set("input", input);
            record.set("result", result);
            String line = PolicyJson.write(record);
            assertTrue(line.contains("\"path\":" + number), line);

            Replay.Restored restored = Replay.restore(stored(id, line));
            assertFalse(restored.refusal().isPresent(), number);
            assertTrue(PolicyJson.write(restored.input()).contains("\"path\":" + number),
                    number + " read back as " + restored.input().path("arguments"));
            Replay.Result replayed = new Replay(pdp).replay(stored(id, line));
            assertEquals(1, replayed.answers().size(), number);
            assertTrue(replayed.answers().get(0).same(), number + ": replayed " + replayed.answers().get(0).value()
                    + ", logged " + result);
        }
    }

    private static StoredDecision stored(UUID id, String line) {
        return new StoredDecision(new DecisionSummary(id, Instant.now(), "r", "tools/call", Optional.of("wiki_read"),
                "thread", "a1", Optional.of("t1"), Outcome.DENIED, List.of("path_invalid"), Optional.empty(),
                Optional.empty()), line, Optional.empty(), false);
    }
}
