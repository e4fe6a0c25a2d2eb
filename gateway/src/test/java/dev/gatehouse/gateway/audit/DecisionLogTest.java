package dev.gatehouse.gateway.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.facts.DecisionInputMapper;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.policy.Schemas;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.facts.CallerFacts;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.gateway.support.Facts;
import dev.gatehouse.gateway.policy.api.Obligations;
import dev.gatehouse.gateway.policy.api.PolicyFault;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.VisibleTools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One schema-valid JSON line per decision, written before the call goes on; no credential ever in a line. */
class DecisionLogTest {

    private static final CallerFacts THREAD = Facts.a1();

    private static final DecisionInput WRITE = new DecisionInput(Optional.of("wiki_write"), Optional.of(Map.of(
            "path", "page.md", "content", "x", "auth", Map.of("apiToken", "tok-SECRET", "note", "kept"),
            "list", List.of(Map.of("Authorization", "Bearer SECRET")))),
            List.of(), THREAD, Map.of());

    @TempDir
    Path dir;

    @Test
    void allowDenyFaultAndListingEachWriteOneValidLine() throws IOException {
        DecisionLog log = logAt(dir.resolve("logs/decisions.jsonl"));
        Decision allow = new Decision(true, List.of(), new Obligations(Map.of(),
                Map.of("path", "agents/a1/page.md"), Optional.of("agents/a1")), "rev-1", 17,
                java.util.Optional.of("default"));
        Decision deny = new Decision(false, List.of(new Decision.Reason("path_escape", "leaves the subtree")),
                Obligations.NONE, "rev-1", 9);
        List<DecisionRecord> records = List.of(
                DecisionRecord.forCall(WRITE, new PolicyOutcome.Decided<>(allow)),
                DecisionRecord.forCall(WRITE, new PolicyOutcome.Decided<>(deny)),
                DecisionRecord.forCall(WRITE, new PolicyOutcome.Failed<>(new PolicyFault(PolicyFault.TIMEOUT,
                        "no answer within 500 ms"))),
                DecisionRecord.forListing(DecisionInput.forListing(THREAD), new PolicyOutcome.Decided<>(
                        new VisibleTools(List.of("wiki_read", "wiki_write"), "rev-1", 5))),
                DecisionRecord.forListing(DecisionInput.forListing(THREAD), new PolicyOutcome.Failed<>(
                        new PolicyFault(PolicyFault.BUSY, "no instance"))));
        for (DecisionRecord record : records) {
            assertInstanceOf(LogResult.Written.class, log.record(record));
        }
        log.close();

        List<String> lines = Files.readAllLines(log.file());
        assertEquals(records.size(), lines.size());
        assertFalse(String.join("\n", lines).contains("SECRET"), "no credential or provider id is logged");
        List<JsonNode> json = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            JsonNode line = PolicyJson.MAPPER.readTree(lines.get(i));
            assertEquals(List.of(), Schemas.errors("decision-log-record.json", line), lines.get(i));
            assertEquals(records.get(i).decisionId().toString(), line.get("decision_id").asText());
            json.add(line);
        }
        assertEquals("default", json.get(0).path("bundles").path("gatehouse").path("keyid").asText(),
                "the record names the key that verified the bundle");
        assertTrue(json.get(1).path("bundles").path("gatehouse").path("keyid").isMissingNode());

        JsonNode allowed = json.get(0);
        assertEquals("gatehouse/authz/decision", allowed.get("path").asText());
        assertEquals("tools/call", allowed.get("method").asText());
        assertEquals("wiki_write", allowed.get("tool").asText());
        assertEquals(PolicyJson.MAPPER.readTree(
                "{\"kind\":\"thread\",\"logicalAgentId\":\"a1\",\"threadId\":\"t1\"}"),
                allowed.get("caller"));
        assertEquals(PolicyJson.MAPPER.readTree("{\"allow\":true,\"reasons\":[],\"obligations\":"
                + "{\"wikiPaths\":{\"path\":\"agents/a1/page.md\"},\"wikiRoot\":\"agents/a1\"}}"),
                allowed.get("result"));
        assertEquals("rev-1", allowed.at("/bundles/gatehouse/revision").asText());
        assertEquals(17, allowed.at("/metrics/timer_eval_us").asLong());
        assertEquals(Set.of("/input/arguments/auth/apiToken", "/input/arguments/list/0/Authorization"),
                Set.copyOf(PolicyJson.MAPPER.convertValue(allowed.get("masked"), List.class)));
        assertEquals("kept", allowed.at("/input/arguments/auth/note").asText());
        assertEquals(ArgumentMasker.MASK, allowed.at("/input/arguments/auth/apiToken"));
        assertFalse(allowed.has("redacted"), "no argument is long: the input is the evaluated one");
        JsonNode unmasked = DecisionInputMapper.forCall(WRITE);
        assertEquals(unmasked.get("caller"), allowed.at("/input/caller"), "the input is the evaluated one");

        assertFalse(json.get(1).get("allow").asBoolean());
        assertEquals("path_escape", json.get(1).at("/reasons/0/code").asText());

        JsonNode fault = json.get(2);
        assertFalse(fault.get("allow").asBoolean());
        assertEquals("policy_unavailable", fault.at("/reasons/0/code").asText());
        assertEquals("timeout", fault.at("/fault/code").asText());
        assertFalse(fault.has("result"));

        assertEquals("tools/list", json.get(3).get("method").asText());
        assertEquals("gatehouse/authz/visible_tools", json.get(3).get("path").asText());
        assertEquals(PolicyJson.MAPPER.readTree("[\"wiki_read\",\"wiki_write\"]"), json.get(3).get("result"));
        assertFalse(json.get(3).at("/input").has("tool"));
        assertEquals("busy", json.get(4).at("/fault/code").asText());
    }

    @Test
    void anUnwritableLogSaysSoAndTheGatewayStillStarts() throws IOException {
        Path blocker = Files.writeString(dir.resolve("not-a-directory"), "x");
        DecisionLog log = logAt(blocker.resolve("decisions.jsonl"));
        LogResult result = log.record(DecisionRecord.forCall(WRITE, new PolicyOutcome.Failed<>(
                new PolicyFault(PolicyFault.BUSY, "no instance"))));
        LogResult.NotWritten notWritten = assertInstanceOf(LogResult.NotWritten.class, result);
        assertTrue(notWritten.detail().contains("not-a-directory"), notWritten.detail());
    }

    @Test
    void concurrentRecordsNeverInterleave() throws Exception {
        DecisionLog log = logAt(dir.resolve("decisions.jsonl"));
        Decision deny = new Decision(false, List.of(new Decision.Reason("schema", "m".repeat(3000))),
                Obligations.NONE, "rev", 1);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<LogResult>> results = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                results.add(pool.submit(() -> log.record(DecisionRecord.forCall(WRITE,
                        new PolicyOutcome.Decided<>(deny)))));
            }
            for (Future<LogResult> result : results) {
                assertInstanceOf(LogResult.Written.class, result.get());
            }
        } finally {
            pool.shutdown();
        }
        log.close();
        List<String> lines = Files.readAllLines(log.file());
        assertEquals(400, lines.size());
        HashSet<String> ids = new HashSet<>();
        for (String line : lines) {
            ids.add(PolicyJson.MAPPER.readTree(line).get("decision_id").asText());
        }
        assertEquals(400, ids.size());
    }

    private static DecisionLog logAt(Path file) {
        DecisionLogConfiguration configuration = new DecisionLogConfiguration();
        configuration.setPath(file.toString());
        return new DecisionLog(configuration);
    }

    @Test
    void longArgumentStringsAreLoggedAsLengthAndHash() throws Exception {
        String content = "x".repeat(1000);
        String accents = "\u00e9".repeat(200); // 200 characters, 400 UTF-8 bytes
        String kept = "\u00e9".repeat(128); // 256 bytes: the longest kept
        DecisionInput input = new DecisionInput(Optional.of("wiki_write"), Optional.of(Map.of("path", "page.md",
                "content", content, "nested", Map.of("list", List.of(kept, accents, 7)),
                "apiToken", "t".repeat(1000))), List.of(), THREAD, Map.of());
        Decision allow = new Decision(true, List.of(), new Obligations(Map.of(),
                Map.of("path", "agents/a1/page.md"), Optional.of("agents/a1")), "rev-1", 17);
        DecisionLog log = logAt(dir.resolve("decisions.jsonl"));
        assertInstanceOf(LogResult.Written.class, log.record(DecisionRecord.forCall(input,
                new PolicyOutcome.Decided<>(allow))));
        log.close();

        String text = Files.readString(log.file());
        JsonNode line = PolicyJson.MAPPER.readTree(text);
        assertEquals(List.of(), Schemas.errors("decision-log-record.json", line), text);
        assertEquals(Set.of("/input/arguments/content", "/input/arguments/nested/list/1"),
                Set.copyOf(PolicyJson.MAPPER.convertValue(line.get("redacted"), List.class)));
        assertEquals(PolicyJson.MAPPER.readTree("{\"length\":1000,\"sha256\":\"" + sha256(content) + "\"}"),
                line.at("/input/arguments/content"));
        assertEquals(PolicyJson.MAPPER.readTree("{\"length\":400,\"sha256\":\"" + sha256(accents) + "\"}"),
                line.at("/input/arguments/nested/list/1"));
        assertEquals(kept, line.at("/input/arguments/nested/list/0").asText());
        assertEquals(7, line.at("/input/arguments/nested/list/2").asInt());
        assertEquals("page.md", line.at("/input/arguments/path").asText());
        assertEquals(ArgumentMasker.MASK, line.at("/input/arguments/apiToken"), "masking comes first and stays");
        assertEquals(List.of("/input/arguments/apiToken"),
                PolicyJson.MAPPER.convertValue(line.get("masked"), List.class));
        System.out.printf("a record with 3.4 KB of argument text is logged in %d bytes%n",
                text.getBytes(StandardCharsets.UTF_8).length);

        DecisionLogConfiguration generous = new DecisionLogConfiguration();
        generous.setPath(dir.resolve("generous.jsonl").toString());
        generous.setMaxArgumentBytes(400);
        DecisionLog roomy = new DecisionLog(generous);
        roomy.record(DecisionRecord.forCall(input, new PolicyOutcome.Decided<>(allow)));
        roomy.close();
        JsonNode generousLine = PolicyJson.MAPPER.readTree(Files.readString(roomy.file()));
        assertEquals(accents, generousLine.at("/input/arguments/nested/list/1").asText(), "400 bytes is within 400");
        assertEquals(List.of("/input/arguments/content"),
                PolicyJson.MAPPER.convertValue(generousLine.get("redacted"), List.class));
    }

    private static String sha256(String value) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(value.getBytes(StandardCharsets.UTF_8)));
    }

    /** Names found by the tester that an anchored, newline-blind pattern let through. */
    @Test
    void credentialLikeNamesAreMaskedWhateverTheirSpelling() throws IOException {
        com.fasterxml.jackson.databind.node.ObjectNode record = (com.fasterxml.jackson.databind.node.ObjectNode)
                PolicyJson.MAPPER.readTree("{\"input\":{\"arguments\":{\"x\\ntoken\":\"S1\",\"api key\":\"S2\","
                        + "\"Pass_word\":\"S3\",\"nested\":[{\"PRIVATE-KEY\":\"S4\"}],\"path\":\"page.md\"}}}");

        List<String> masked = RecordRedactor.redact(record, 256).masked();

        assertEquals(Set.of("/input/arguments/x\ntoken", "/input/arguments/api key", "/input/arguments/Pass_word",
                "/input/arguments/nested/0/PRIVATE-KEY"), Set.copyOf(masked));
        assertFalse(record.toString().matches("(?s).*S[1-4].*"), record.toString());
        assertEquals("page.md", record.at("/input/arguments/path").asText());
    }
}
