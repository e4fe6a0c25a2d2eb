package dev.gatehouse.gateway.audit;

import static dev.gatehouse.gateway.audit.AuditFixtures.ids;
import static dev.gatehouse.gateway.audit.AuditFixtures.longPath;
import static dev.gatehouse.gateway.audit.AuditFixtures.readAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.facts.SegmentCharacters;
import dev.gatehouse.facts.DecisionInputMapper;
import dev.gatehouse.gateway.policy.DecisionJson;
import dev.gatehouse.gateway.policy.Entrypoint;
import dev.gatehouse.gateway.policy.GoldenCases;
import dev.gatehouse.gateway.policy.OpaCli;
import dev.gatehouse.gateway.policy.TestBundle;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdp;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdpConfiguration;
import dev.gatehouse.gateway.support.LoggedRecords;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The attack of issue 28 on the decision log's own API: one agent with only wiki.read makes 30,000 allowed reads of
 * a 7,350-byte path right after a mix of other decisions. With the default budget nothing is deleted, the earlier
 * decisions are all kept, and every record replays: putting its values back gives exactly the input the PDP
 * evaluated and the result it returned, and the real {@code opa eval} on the Rego sources returns that result for
 * each distinct input.
 */
class DecisionLogFloodTest {

    private static final int FLOOD = 30_000;

    @TempDir
    Path dir;

    @Test
    void aFloodOfLongPathReadsKeepsTheEarlierDecisionsAndEveryRecordReplays() throws Exception {
        EmbeddedPdpConfiguration pdpConfiguration = TestBundle.configuration(TestBundle.freshBundle());
        pdpConfiguration.setPoolSize(1);
        EmbeddedPdp pdp = new EmbeddedPdp(pdpConfiguration);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        DecisionLogConfiguration configuration = AuditFixtures.configuration(dir.resolve("decisions.jsonl"));
        DecisionLog log = new DecisionLog(configuration, Clock.systemUTC(), UnaryOperator.identity(), List.of(),
                meters);

        Map<String, DecisionInput> evaluated = new LinkedHashMap<>();
        Map<String, Decision> decided = new HashMap<>();
        for (DecisionInput input : earlier()) {
            PolicyOutcome<Decision> outcome = pdp.decide(input);
            DecisionRecord record = DecisionRecord.forCall(input, outcome);
            assertInstanceOf(LogResult.Written.class, log.record(record));
            evaluated.put(record.decisionId().toString(), input);
            decided.put(record.decisionId().toString(), ((PolicyOutcome.Decided<Decision>) outcome).value());
        }
        List<String> earlierIds = List.copyOf(evaluated.keySet());

        Map<String, Object> arguments = Map.of("path", longPath());
        DecisionInput read = new DecisionInput(Optional.of("wiki_read"), Optional.of(arguments), List.of(),
                AuditFixtures.THREAD, Map.of(),
                SegmentCharacters.of(arguments, List.of("path"), AuditFixtures.THREAD.subtreeIds()));
        Decision allowed = ((PolicyOutcome.Decided<Decision>) pdp.decide(read)).value();
        assertTrue(allowed.allow(), "the policy allows the 7,350-byte path: " + allowed.reasons());
        ExecutorService callers = Executors.newFixedThreadPool(8);
        try {
            List<Future<String>> flood = new ArrayList<>();
            for (int i = 0; i < FLOOD; i++) {
                flood.add(callers.submit(() -> {
                    DecisionRecord record = DecisionRecord.forCall(read, new PolicyOutcome.Decided<>(allowed));
                    assertInstanceOf(LogResult.Written.class, log.record(record));
                    return record.decisionId().toString();
                }));
            }
            for (Future<String> id : flood) {
                evaluated.put(id.get(), read);
                decided.put(id.get(), allowed);
            }
        } finally {
            callers.shutdown();
        }
        log.close();

        List<Path> files = log.files();
        List<JsonNode> logged = readAll(files);
        assertEquals(earlierIds, ids(logged).subList(0, earlierIds.size()), "the earlier decisions are all kept");
        assertEquals(Set.copyOf(evaluated.keySet()), Set.copyOf(ids(logged)), "every decision once");
        assertEquals(evaluated.size(), logged.size());
        assertEquals(0, meters.find(LogRetention.EVICTED).counter().count());
        assertFalse(log.retention().degraded());

        Map<String, JsonNode> values = LoggedRecords.values(files);
        Map<JsonNode, JsonNode> distinct = new LinkedHashMap<>();
        Map<DecisionInput, JsonNode> inputs = new IdentityHashMap<>();
        for (JsonNode record : logged) {
            String id = record.get("decision_id").asText();
            JsonNode restored = LoggedRecords.restore(record, values);
            assertEquals(inputs.computeIfAbsent(evaluated.get(id), DecisionInputMapper::forCall),
                    restored.get("input"), id);
            assertEquals(DecisionJson.decision(decided.get(id)), restored.get("result"), id);
            distinct.putIfAbsent(restored.get("input"), restored.get("result"));
        }
        for (Map.Entry<JsonNode, JsonNode> replay : distinct.entrySet()) {
            assertEquals(replay.getValue(), OpaCli.eval(Entrypoint.DECISION.query(), replay.getKey()),
                    () -> "replay differs for " + replay.getKey());
        }

        long logBytes = 0;
        long valuesBytes = 0;
        for (Path file : files) {
            logBytes += Files.size(file);
            valuesBytes += Files.exists(LogFiles.valuesFile(file)) ? Files.size(LogFiles.valuesFile(file)) : 0;
        }
        System.out.printf("%d records (%d before a flood of %d reads of a 7,350-byte path) in %d file(s): %,d bytes"
                        + " of records and %,d bytes of values; %d distinct inputs replayed in opa%n", logged.size(),
                earlierIds.size(), FLOOD, files.size(), logBytes, valuesBytes, distinct.size());
    }

    /** The first allowed and the first denied typed golden input of every family. */
    private static List<DecisionInput> earlier() {
        Set<String> seen = new HashSet<>();
        List<DecisionInput> inputs = new ArrayList<>();
        for (GoldenCases.GoldenCase c : GoldenCases.all()) {
            Optional<DecisionInput> typed = c.typed();
            if (typed.isPresent() && seen.add(c.family() + "/" + c.expected().get("allow").asBoolean())) {
                inputs.add(typed.get());
            }
        }
        return inputs;
    }
}
