package dev.gatehouse.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.review.Opa;
import dev.gatehouse.review.PolicySource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hand-made decision log over two rotated files: good records whose results the policy gives today, one
 * tampered record (allow flipped), and a fault record, which has no result to compare.
 */
class ReplayTest {

    @TempDir
    Path tmp;

    private ObjectNode record(String id, String tool, JsonNode arguments) throws Exception {
        return record(id, tool, Repo.input(tool, arguments));
    }

    private ObjectNode record(String id, String tool, ObjectNode input) throws Exception {
        JsonNode result;
        try (PolicySource policies = PolicySource.directory(Repo.POLICIES)) {
            result = Repo.opa().eval(policies, GatehouseCli.DECISION, input);
        }
        ObjectNode r = Opa.JSON.createObjectNode();
        r.put("decision_id", id);
        r.put("timestamp", "2025-01-01T00:00:00Z");
        r.put("path", "gatehouse/authz/decision");
        r.put("method", "tools/call");
        r.put("tool", tool);
        r.putObject("caller").put("kind", "thread").put("logicalAgentId", "a1").put("environmentId", "e1");
        r.set("input", input);
        r.set("result", result);
        r.putObject("bundles").putObject("gatehouse").put("revision", "rev-1");
        r.putObject("metrics").put("timer_eval_us", 12);
        r.set("allow", result.get("allow"));
        r.set("reasons", result.get("reasons"));
        r.set("obligations", result.get("obligations"));
        return r;
    }

    private ObjectNode listing(String id) throws Exception {
        ObjectNode input = Repo.input("t3_thread_list", Opa.JSON.createObjectNode());
        input.remove("tool");
        input.remove("arguments");
        JsonNode result;
        try (PolicySource policies = PolicySource.directory(Repo.POLICIES)) {
            result = Repo.opa().eval(policies, "data.gatehouse.authz.visible_tools", input);
        }
        ObjectNode r = Opa.JSON.createObjectNode();
        r.put("decision_id", id);
        r.put("path", "gatehouse/authz/visible_tools");
        r.put("method", "tools/list");
        r.set("input", input);
        r.set("result", result);
        r.putObject("bundles").putObject("gatehouse").put("revision", "rev-1");
        r.put("allow", true);
        r.putArray("reasons");
        return r;
    }

    private static String lines(JsonNode... records) {
        StringBuilder b = new StringBuilder();
        for (JsonNode r : records) {
            b.append(r.toString()).append('\n');
        }
        return b.toString();
    }

    @Test
    void listsTheTamperedRecordAndExitsOne() throws Exception {
        ObjectNode good1 = record("00000000-0000-4000-8000-000000000001", "t3_thread_list", Opa.JSON.createObjectNode());
        ObjectNode good2 = record("00000000-0000-4000-8000-000000000002", "no_such_tool", Opa.JSON.createObjectNode());
        ObjectNode tampered = record("00000000-0000-4000-8000-000000000003", "no_such_tool", Opa.JSON.createObjectNode());
        ((ObjectNode) tampered.get("result")).put("allow", true);
        ((ObjectNode) tampered.get("result")).putArray("reasons");
        tampered.put("allow", true);
        tampered.putArray("reasons");
        ObjectNode fault = Opa.JSON.createObjectNode();
        fault.put("decision_id", "00000000-0000-4000-8000-000000000004");
        fault.put("path", "gatehouse/authz/decision");
        fault.set("input", good1.get("input"));
        fault.putObject("fault").put("code", "timeout").put("detail", "x");

        Path older = tmp.resolve("decisions.jsonl.1");
        Path newer = tmp.resolve("decisions.jsonl");
        Files.writeString(older, lines(good1, listing("00000000-0000-4000-8000-000000000005")));
        Files.writeString(newer, lines(fault, good2) + "\n" + lines(tampered));

        Repo.Result r = Repo.cli("replay", older.toString(), newer.toString(), "--policies", Repo.POLICIES.toString());

        assertEquals(1, r.rc(), r.out() + r.err());
        List<String> mismatches = r.out().lines().filter(l -> l.contains("MISMATCH")).toList();
        assertEquals(1, mismatches.size(), r.out());
        assertTrue(mismatches.get(0).contains(newer + ":4 decision 00000000-0000-4000-8000-000000000003"), r.out());
        assertTrue(mismatches.get(0).contains("recorded ALLOW []"), r.out());
        assertTrue(r.out().contains("replayed 4 records (2 distinct inputs) from 2 file(s)"), r.out());
        assertTrue(r.out().contains("skipped 1 fault or fair-share record(s)"), r.out());
    }

    @Test
    void agreesWithAnHonestLogAndExitsZero() throws Exception {
        Path log = tmp.resolve("decisions.jsonl");
        Files.writeString(log, lines(record("00000000-0000-4000-8000-000000000001", "wiki_read",
                Opa.JSON.createObjectNode().put("path", "notes/plan.md")), listing("00000000-0000-4000-8000-000000000002")));

        Repo.Result r = Repo.cli("replay", log.toString());

        assertEquals(0, r.rc(), r.out() + r.err());
        assertTrue(r.out().contains("no mismatches"), r.out());
    }

    /**
     * Numbers a double cannot hold (found by a new user's trial: {@code {"path":1e400}} was logged as {@code 1E+400},
     * read back as Infinity, sent to the policy as the string "Infinity" and reported as a mismatch), and the rest of
     * their kind: overflow either way, underflow, more digits than a double keeps, trailing zeros. Each record's
     * result is what the policy gives the exact number; replay agrees with every one.
     */
    @Test
    void numbersAreReplayedAsLoggedNotAsDoubles() throws Exception {
        List<String> numbers = List.of("1E+400", "-1E+400", "1E-400", "1.50", "123456789012345678901234567890.123",
                "0.1000000000000000055511151231257827");
        StringBuilder log = new StringBuilder();
        for (int i = 0; i < numbers.size(); i++) {
            ObjectNode arguments = Opa.JSON.createObjectNode().put("path", new java.math.BigDecimal(numbers.get(i)));
            ObjectNode logged = record(String.format("00000000-0000-4000-8000-%012d", i + 1), "wiki_read",
                    Repo.input("wiki_read", arguments));
            assertTrue(logged.toString().contains("\"path\":" + numbers.get(i)), logged.toString());
            assertTrue(logged.path("reasons").toString().contains("path_invalid"), logged.toString());
            log.append(logged).append('\n');
        }
        Path file = tmp.resolve("decisions.jsonl");
        Files.writeString(file, log.toString());

        Repo.Result r = Repo.cli("replay", file.toString());

        assertEquals(0, r.rc(), r.out() + r.err());
        assertTrue(r.out().contains("no mismatches"), r.out());
    }

    /** A path the policy reads and allows, too long to be logged: 22 segments, 573 bytes. */
    private static final String LONG_PATH = "notes/" + ("segment" + "x".repeat(20) + "/").repeat(20) + "page.md";

    private ObjectNode longWrite(String id) throws Exception {
        ObjectNode input = Repo.input("wiki_write", Opa.JSON.createObjectNode().put("path", LONG_PATH)
                .put("content", "x"));
        ArrayNode keys = input.putArray("argumentKeys");
        for (String key : List.of("path", "content")) {
            keys.addObject().put("path", "/" + key).put("key", key).put("folded", key);
        }
        ObjectNode allowed = record(id, "wiki_write", input);
        assertTrue(allowed.get("allow").asBoolean(), allowed.toString());
        allowed.set("obligations", allowed.get("obligations").deepCopy()); // the readable copy is a copy
        return allowed;
    }

    /** Replaces the long path everywhere the decision log would, as its stand-in; returns its values-file entry. */
    private static String standIn(ObjectNode record, String pointer) throws Exception {
        JsonNode value = record.at(pointer);
        byte[] bytes = value.asText().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        String sha256 = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(bytes));
        int slash = pointer.lastIndexOf('/');
        ((ObjectNode) record.at(pointer.substring(0, slash))).putObject(pointer.substring(slash + 1))
                .put("length", bytes.length).put("sha256", sha256);
        (record.has("redacted") ? (ArrayNode) record.get("redacted") : record.putArray("redacted")).add(pointer);
        return Opa.JSON.createObjectNode().put("sha256", sha256).put("value", value.asText()) + "\n";
    }

    /**
     * Records whose long path the log kept once in the values file beside it, by SHA-256 (found by replaying a
     * real log, where such records could not be replayed): the path is put back in the input and in the result's
     * obligations, and the records replay; identical inputs are evaluated once.
     */
    @Test
    void recordsWithValuesInTheValuesFileReplay() throws Exception {
        ObjectNode first = longWrite("00000000-0000-4000-8000-000000000001");
        ObjectNode second = longWrite("00000000-0000-4000-8000-000000000002");
        StringBuilder values = new StringBuilder();
        for (ObjectNode record : List.of(first, second)) {
            String entry = standIn(record, "/input/arguments/path");
            standIn(record, "/result/obligations/wikiPaths/path");
            String resolved = standIn(record, "/obligations/wikiPaths/path");
            if (record == first) {
                values.append(entry).append(resolved); // once in the file, though two records stand in for it
            }
        }
        Path log = tmp.resolve("decisions.jsonl");
        Files.writeString(log, lines(first, second));
        Files.writeString(tmp.resolve("decisions.values.jsonl"), values.toString());

        Repo.Result r = Repo.cli("replay", log.toString());

        assertEquals(0, r.rc(), r.out() + r.err());
        assertTrue(r.out().contains("replayed 2 records (1 distinct inputs) from 1 file(s)"), r.out());
        assertTrue(r.out().contains("2 record(s) had values put back from 1 values file(s) (2 values)"), r.out());
        assertTrue(r.out().contains("no mismatches"), r.out());

        // A values file named on the command line is read, not replayed; a tampered value is refused.
        Path moved = tmp.resolve("elsewhere.values.jsonl");
        Files.move(tmp.resolve("decisions.values.jsonl"), moved);
        Repo.Result given = Repo.cli("replay", moved.toString(), log.toString());
        assertEquals(0, given.rc(), given.out() + given.err());
        assertTrue(given.out().contains("replayed 2 records"), given.out());
        Files.writeString(moved, Files.readString(moved).replace("segmentx", "segmenty"));
        Repo.Result tampered = Repo.cli("replay", moved.toString(), log.toString());
        assertEquals(2, tampered.rc(), tampered.out() + tampered.err());
        assertTrue(tampered.err().contains("not a value whose SHA-256 is its sha256"), tampered.err());
    }

    /** A reduced line is replayed as its whole record, read back from the values file. */
    @Test
    void aReducedRecordReplaysAsItsWholeRecord() throws Exception {
        ObjectNode whole = record("00000000-0000-4000-8000-000000000001", "wiki_read",
                Opa.JSON.createObjectNode().put("path", "notes/plan.md"));
        String text = Opa.JSON.writeValueAsString(whole);
        String sha256 = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        ObjectNode reduced = Opa.JSON.createObjectNode();
        for (String member : List.of("decision_id", "timestamp", "path", "method", "tool", "caller", "allow",
                "reasons", "bundles", "metrics")) {
            reduced.set(member, whole.get(member));
        }
        reduced.putObject("reduced").put("length", text.length()).put("sha256", sha256).put("json", true);
        Path log = tmp.resolve("decisions.jsonl");
        Files.writeString(log, lines(reduced));
        ObjectNode entry = Opa.JSON.createObjectNode().put("sha256", sha256);
        entry.set("json", whole);
        Files.writeString(tmp.resolve("decisions.values.jsonl"), entry + "\n");

        Repo.Result r = Repo.cli("replay", log.toString());

        assertEquals(0, r.rc(), r.out() + r.err());
        assertTrue(r.out().contains("replayed 1 records"), r.out());
        assertTrue(r.out().contains("no mismatches"), r.out());
    }

    /**
     * A record needing a value no values file holds (a masked credential's, which is never kept, or a values file
     * left behind) is counted and skipped, not reported as a mismatch.
     */
    @Test
    void aRecordWhoseValueIsNotKeptIsSkippedNotAMismatch() throws Exception {
        ObjectNode allowed = longWrite("00000000-0000-4000-8000-000000000001");
        standIn(allowed, "/input/arguments/path");
        ObjectNode honest = record("00000000-0000-4000-8000-000000000002", "wiki_read",
                Opa.JSON.createObjectNode().put("path", "notes/plan.md"));
        Path log = tmp.resolve("decisions.jsonl");
        Files.writeString(log, lines(allowed, honest));

        Repo.Result r = Repo.cli("replay", log.toString());

        assertEquals(0, r.rc(), r.out() + r.err());
        assertTrue(r.out().contains("replayed 1 records"), r.out());
        assertTrue(r.out().contains("skipped 1 record(s) needing a value no values file holds"), r.out());
    }

    @Test
    void aRecordWhoseReadableCopyContradictsItsResultIsAMismatch() throws Exception {
        ObjectNode r1 = record("00000000-0000-4000-8000-000000000001", "no_such_tool", Opa.JSON.createObjectNode());
        r1.put("allow", true);
        Path log = tmp.resolve("decisions.jsonl");
        Files.writeString(log, lines(r1));

        Repo.Result r = Repo.cli("replay", log.toString());

        assertEquals(1, r.rc(), r.out());
        assertTrue(r.out().contains("contradicts its own result (allow)"), r.out());
    }
}
