package dev.gatehouse.gateway.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.gateway.audit.DecisionLog;
import dev.gatehouse.gateway.audit.DecisionLogConfiguration;
import dev.gatehouse.gateway.audit.LogFiles;
import dev.gatehouse.gateway.auth.GatewayProperties;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.TrustedContextResolver;
import dev.gatehouse.facts.ClosedSchemaArgumentCheck;
import dev.gatehouse.gateway.policy.Entrypoint;
import dev.gatehouse.gateway.policy.OpaCli;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdp;
import dev.gatehouse.gateway.quota.TestQuotas;
import dev.gatehouse.gateway.support.Callers;
import dev.gatehouse.gateway.support.InMemoryAgentDirectory;
import dev.gatehouse.gateway.support.LoggedRecords;
import dev.gatehouse.gateway.support.RecordingHandlers;
import dev.gatehouse.gateway.support.Slow;
import dev.gatehouse.gateway.support.ThreadStateHost;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28's attack through the PEP, with the real embedded PDP and bundle: an agent with only wiki.read reads a
 * 7,350-byte confined path again and again after other calls. Each record stays small (the path, its resolved
 * form and its unicode facts are kept once, in the values file), the earlier decisions stay, and every record
 * replays in the real {@code opa eval} once its values are put back.
 */
@Slow
class GateAuditTrailTest {

    private static final int READS = 2_000;

    @Test
    void repeatedReadsOfALongPathKeepTheTrailSmallWholeAndReplayable(@TempDir Path dir) throws Exception {
        PolicyDecisionPoint pdp = new EmbeddedPdp(GateTest.configuration(Path.of(
                System.getProperty("gatehouse.bundle.dir", "../target/bundle"), "bundle.tar.gz")));
        InMemoryAgentDirectory settings = new InMemoryAgentDirectory();
        settings.put("a1", new AgentSettings(false, new AgentSettings.Project(false, Optional.empty()),
                new AgentSettings.Wiki(true, false)));
        ToolTables tables = new ToolTables(new RecordingHandlers().all(), new ClosedSchemaArgumentCheck());
        DecisionLogConfiguration configuration = new DecisionLogConfiguration();
        configuration.setPath(dir.resolve("decisions.jsonl").toString());
        DecisionLog log = new DecisionLog(configuration);
        Gate gate = GateTest.gate(tables, new TrustedContextResolver(new ThreadStateHost(), settings,
                new GatewayProperties()), pdp, log, new TestQuotas());

        List<String> earlier = new ArrayList<>();
        earlier.add(decided(gate.call(Callers.a1(), "wiki_read", Map.of("path", "notes/plan.md"))));
        earlier.add(decided(gate.call(Callers.a1(), "wiki_write", Map.of("path", "notes/plan.md", "content", "x"))));
        earlier.add(decided(gate.call(Callers.a1(), "wiki_read", Map.of("path", "../a2/secret.md"))));
        earlier.add(decided(gate.call(Callers.a1(), "project_work_list", Map.of())));
        String path = longPath();
        for (int i = 0; i < READS; i++) {
            assertInstanceOf(GateResult.Completed.class, gate.call(Callers.a1(), "wiki_read", Map.of("path", path)));
        }
        log.close();

        List<Path> files = log.files();
        assertEquals(List.of(dir.resolve("decisions.jsonl")), files);
        List<String> lines = Files.readAllLines(files.get(0));
        assertEquals(earlier.size() + READS, lines.size());
        int longest = 0;
        Map<String, JsonNode> values = LoggedRecords.values(files);
        Map<JsonNode, JsonNode> distinct = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            longest = Math.max(longest, line.getBytes(StandardCharsets.UTF_8).length + 1);
            assertFalse(line.contains(path.substring(0, 200)), "no record holds the path");
            JsonNode record = PolicyJson.MAPPER.readTree(line);
            if (i < earlier.size()) {
                assertEquals(earlier.get(i), record.get("decision_id").asText(), "the earlier decisions are kept");
            }
            JsonNode restored = LoggedRecords.restore(record, values);
            distinct.putIfAbsent(restored.get("input"), restored.get("result"));
        }
        assertEquals(path, distinct.keySet().stream().reduce((a, b) -> b).orElseThrow().at("/arguments/path")
                .asText(), "the path comes back whole");
        for (Map.Entry<JsonNode, JsonNode> replay : distinct.entrySet()) {
            assertEquals(replay.getValue(), OpaCli.eval(Entrypoint.DECISION.query(), replay.getKey()),
                    () -> "replay differs for " + replay.getKey());
        }
        long valueLines = Files.readAllLines(LogFiles.valuesFile(files.get(0))).size();
        assertEquals(3, valueLines, "the path, its resolved form and its unicode facts, once each");
        assertTrue(longest < 2_048, "a record of " + longest + " bytes");
        System.out.printf("%d reads of a %d-byte path through the gate: records of at most %d bytes, %d values"
                        + " kept once (%d bytes); %d distinct inputs replayed in opa%n", READS,
                path.getBytes(StandardCharsets.UTF_8).length, longest, valueLines,
                Files.size(LogFiles.valuesFile(files.get(0))), distinct.size());
    }

    /** The 7,350-byte path of the issue: 30 distinct segments of letters outside ASCII, each within 251 bytes. */
    private static String longPath() {
        StringBuilder path = new StringBuilder("00x" + "\u00e9".repeat(121));
        for (int i = 1; i < 30; i++) {
            path.append('/').append(String.format("%02d", i)).append("\u00e9".repeat(121));
        }
        return path.toString();
    }

    /** The decision id of a call that was decided and logged. */
    private static String decided(GateResult result) {
        return assertInstanceOf(GateResult.Decided.class, result, result::toString).decisionId();
    }
}
