package dev.gatehouse.gateway.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.gateway.policy.Entrypoint;
import dev.gatehouse.gateway.policy.GoldenCases;
import dev.gatehouse.gateway.policy.GoldenCases.GoldenCase;
import dev.gatehouse.gateway.policy.OpaCli;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.policy.TestBundle;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdp;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdpConfiguration;
import dev.gatehouse.gateway.support.LoggedRecords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The decision log is replayable (style card 7): decisions made by the embedded engine are logged, then every
 * logged {@code input} is evaluated again by the real {@code opa eval} on the Rego sources, which must return the
 * logged {@code result}, masked arguments included. The records are read from every file, rotated ones first, in
 * {@link DecisionLog#files()} order; a record with stand-ins for long values is replayed with the values put back
 * from the values files, as the replay CLI does.
 */
class DecisionLogReplayTest {

    @TempDir
    Path dir;

    @Test
    void everyLoggedDecisionReplaysInOpa() throws Exception {
        EmbeddedPdpConfiguration pdpConfiguration = TestBundle.configuration(TestBundle.freshBundle());
        pdpConfiguration.setPoolSize(1);
        EmbeddedPdp pdp = new EmbeddedPdp(pdpConfiguration);
        DecisionLogConfiguration logConfiguration = new DecisionLogConfiguration();
        logConfiguration.setPath(dir.resolve("decisions.jsonl").toString());
        logConfiguration.setMaxFileBytes(4096); // the records span several rotated files
        logConfiguration.setMaxFiles(1000);
        DecisionLog log = new DecisionLog(logConfiguration);

        List<DecisionInput> inputs = sample();
        DecisionInput first = inputs.get(0);
        Map<String, Object> withToken = new HashMap<>(Map.of("path", "page.md", "token", "tok-SECRET"));
        inputs.add(new DecisionInput(Optional.of("wiki_read"), Optional.of(withToken), List.of(), first.caller(),
                Map.of()));
        Map<String, Object> longContent = Map.of("path", "page.md", "content", "c".repeat(1000));
        inputs.add(new DecisionInput(Optional.of("wiki_write"), Optional.of(longContent), List.of(), first.caller(),
                Map.of()));
        for (DecisionInput input : inputs) {
            assertInstanceOf(LogResult.Written.class, log.record(DecisionRecord.forCall(input, pdp.decide(input))));
        }
        DecisionInput listing = DecisionInput.forListing(first.caller());
        assertInstanceOf(LogResult.Written.class,
                log.record(DecisionRecord.forListing(listing, pdp.visibleTools(listing))));
        log.close();

        List<Path> files = log.files();
        assertTrue(files.size() > 2, "rotated: " + files);
        List<String> lines = new ArrayList<>();
        for (Path file : files) {
            lines.addAll(Files.readAllLines(file));
        }
        assertEquals(inputs.size() + 1, lines.size());
        int masked = 0;
        int redacted = 0;
        Map<String, JsonNode> values = LoggedRecords.values(files);
        for (String line : lines) {
            JsonNode logged = PolicyJson.MAPPER.readTree(line);
            assertTrue(logged.has("result"), () -> "the PDP failed: " + line);
            if (logged.has("redacted")) { // not the evaluated input until the value is put back
                assertEquals("[\"/input/arguments/content\"]", logged.get("redacted").toString());
                assertEquals(1000, logged.at("/input/arguments/content/length").asInt());
                redacted++;
            }
            JsonNode record = LoggedRecords.restore(logged, values);
            Entrypoint entrypoint = Arrays.stream(Entrypoint.values())
                    .filter(e -> e.path().equals(record.get("path").asText())).findFirst().orElseThrow();
            JsonNode replayed = OpaCli.eval(entrypoint.query(), record.get("input"));
            assertEquals(record.get("result"), replayed, () -> "replay differs for " + line);
            masked += record.has("masked") ? 1 : 0;
        }
        assertEquals(1, masked, "the token argument was masked and still replayed");
        assertEquals(1, redacted, "the long content was redacted, marked so, and replayed with it put back");
    }

    /**
     * The first allowed and the first denied typed golden input of every family: small, because each replay starts
     * an OPA process, and still covering every family's rules and obligations.
     */
    private static List<DecisionInput> sample() {
        Set<String> seen = new HashSet<>();
        List<DecisionInput> inputs = new ArrayList<>();
        for (GoldenCase c : GoldenCases.all()) {
            Optional<DecisionInput> typed = c.typed();
            if (typed.isPresent() && seen.add(c.family() + "/" + c.expected().get("allow").asBoolean())) {
                inputs.add(typed.get());
            }
        }
        return inputs;
    }
}
