package dev.gatehouse.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
        assertTrue(r.out().contains("replayed 4 records from 2 file(s)"), r.out());
        assertTrue(r.out().contains("skipped 1 fault record(s)"), r.out());
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
     * An allowed write whose path the log kept only as {length, sha256}: replaying the stand-in would deny it, so
     * the record is counted as redacted, not reported as a mismatch (found by replaying a real log).
     */
    @Test
    void aRecordWithRedactedValuesIsSkippedNotAMismatch() throws Exception {
        String path = "notes/" + "segment/".repeat(30) + "page.md";
        ObjectNode input = Repo.input("wiki_write", Opa.JSON.createObjectNode().put("path", path).put("content", "x"));
        ArrayNode keys = input.putArray("argumentKeys");
        for (String key : List.of("path", "content")) {
            keys.addObject().put("path", "/" + key).put("key", key).put("folded", key);
        }
        ObjectNode allowed = record("00000000-0000-4000-8000-000000000001", "wiki_write", input);
        assertTrue(allowed.get("allow").asBoolean(), allowed.toString());
        ((ObjectNode) allowed.get("input").get("arguments")).putObject("path").put("length", path.length())
                .put("sha256", "0".repeat(64));
        allowed.putArray("redacted").add("/input/arguments/path");
        ObjectNode honest = record("00000000-0000-4000-8000-000000000002", "wiki_read",
                Opa.JSON.createObjectNode().put("path", "notes/plan.md"));
        Path log = tmp.resolve("decisions.jsonl");
        Files.writeString(log, lines(allowed, honest));

        Repo.Result r = Repo.cli("replay", log.toString());

        assertEquals(0, r.rc(), r.out() + r.err());
        assertTrue(r.out().contains("replayed 1 records from 1 file(s)"), r.out());
        assertTrue(r.out().contains("skipped 1 redacted record(s)"), r.out());
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
