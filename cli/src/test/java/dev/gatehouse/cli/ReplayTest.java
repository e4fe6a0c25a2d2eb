package dev.gatehouse.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.review.Opa;
import dev.gatehouse.review.PolicySource;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    private ObjectNode honest(String id) throws Exception {
        return record(id, "wiki_read", (JsonNode) Opa.JSON.createObjectNode().put("path", "notes/plan.md"));
    }

    /**
     * A line with a member given twice (accepted before: the parser kept the last, which need not be what the
     * gateway decided on), at the top or deeper, is not a record: a mismatch naming the line and the member.
     */
    @Test
    void aRecordWithAMemberGivenTwiceIsAMismatchNamingIt() throws Exception {
        String line = honest("00000000-0000-4000-8000-000000000001").toString();
        List<String> twice = List.of(line.replaceFirst("\\{", "{\"allow\":true,"),
                line.replaceFirst("\"input\":\\{", "$0\"tool\":\"wiki_write\","),
                line.replaceFirst("\\}$", ",\"result\":{\"allow\":true}}"));
        for (String dup : twice) {
            Path log = tmp.resolve("decisions.jsonl");
            Files.writeString(log, lines(honest("00000000-0000-4000-8000-000000000002")) + dup + "\n");

            Repo.Result r = Repo.cli("replay", log.toString());

            assertEquals(1, r.rc(), r.out() + r.err());
            List<String> mismatches = r.out().lines().filter(l -> l.contains("MISMATCH")).toList();
            assertEquals(1, mismatches.size(), r.out());
            assertTrue(mismatches.get(0).matches(".*MISMATCH " + java.util.regex.Pattern.quote(log + ":2")
                    + ": not a JSON record \\(column \\d+: Duplicate field '(allow|tool|result)'\\)"), r.out());
        }
    }

    /**
     * A decision id read again: the same record (a file given twice, a line copied) is replayed once and said so,
     * exit 0; a different record under an id already read contradicts the log (one record per decision): a mismatch
     * naming both lines.
     */
    @Test
    void aDecisionIdReadTwiceIsReplayedOnceOrIsAMismatch() throws Exception {
        ObjectNode first = honest("00000000-0000-4000-8000-000000000001");
        Path log = tmp.resolve("decisions.jsonl");
        Files.writeString(log, lines(first, first));

        Repo.Result sameLine = Repo.cli("replay", log.toString());

        assertEquals(0, sameLine.rc(), sameLine.out() + sameLine.err());
        assertTrue(sameLine.out().contains("replayed 1 records (1 distinct inputs)"), sameLine.out());
        assertTrue(sameLine.out().contains("replayed once 1 record(s) read again with the same decision id and"
                + " contents (a file given twice?): " + log + ":2 repeats " + log + ":1"), sameLine.out());

        Files.writeString(log, lines(first));
        Repo.Result sameFile = Repo.cli("replay", log.toString(), log.toString());
        assertEquals(0, sameFile.rc(), sameFile.out() + sameFile.err());
        assertTrue(sameFile.out().contains("replayed 1 records"), sameFile.out());
        assertTrue(sameFile.out().contains(log + ":1 repeats " + log + ":1"), sameFile.out());

        ObjectNode other = record("00000000-0000-4000-8000-000000000001", "no_such_tool", Opa.JSON.createObjectNode());
        Path rotated = tmp.resolve("decisions-1.jsonl");
        Files.writeString(rotated, lines(honest("00000000-0000-4000-8000-000000000002"), other));
        Repo.Result different = Repo.cli("replay", log.toString(), rotated.toString());
        assertEquals(1, different.rc(), different.out() + different.err());
        List<String> mismatches = different.out().lines().filter(l -> l.contains("MISMATCH")).toList();
        assertEquals(List.of("  MISMATCH " + rotated + ":2 decision 00000000-0000-4000-8000-000000000001 tools/call"
                + " no_such_tool: a second, different record with this decision id (the first is " + log + ":1)"),
                mismatches, different.out());
        assertTrue(different.out().contains("replayed 3 records (1 distinct inputs)"), different.out());
    }

    /**
     * A log with no record (found by a new user's trial: an empty file replayed as "no mismatches", exit 0) is
     * refused saying it is empty, exit 2; so are only blank lines, several empty files and values files alone. An
     * empty file beside files with records (the live file just after a rotation, which the gateway starts empty) is
     * said, not refused.
     */
    @Test
    void anEmptyLogIsRefusedSayingSo() throws Exception {
        Path empty = Files.writeString(tmp.resolve("decisions.jsonl"), "");
        Path blank = Files.writeString(tmp.resolve("blank.jsonl"), "\n \n\t\n");
        Path values = Files.writeString(tmp.resolve("x.values.jsonl"), "");
        Map<List<Path>, String> runs = new LinkedHashMap<>();
        runs.put(List.of(empty), empty + " is empty: no decision-log records");
        runs.put(List.of(blank), blank + " is empty: no decision-log records");
        runs.put(List.of(empty, blank), "every file given is empty (" + empty + ", " + blank + "): no decision-log"
                + " records");
        runs.put(List.of(values), "no decision-log file given, only values files");
        for (Map.Entry<List<Path>, String> run : runs.entrySet()) {
            List<String> args = new ArrayList<>(List.of("replay"));
            run.getKey().forEach(p -> args.add(p.toString()));

            Repo.Result r = Repo.cli(args.toArray(String[]::new));

            assertEquals(2, r.rc(), run.getKey() + ": " + r.out() + r.err());
            assertEquals(List.of("gatehouse: " + run.getValue()), r.err().lines().toList());
            assertEquals("", r.out());
        }

        Path rotated = Files.writeString(tmp.resolve("decisions-1.jsonl"), lines(honest("00000000-0000-4000-8000-0"
                + "00000000001")));
        Repo.Result afterRotation = Repo.cli("replay", rotated.toString(), empty.toString());
        assertEquals(0, afterRotation.rc(), afterRotation.out() + afterRotation.err());
        assertTrue(afterRotation.out().contains("no records in " + empty + ": empty (as the live file is just after"
                + " a rotation)"), afterRotation.out());
    }

    /**
     * A file none of whose lines is a decision-log record (a new user's trial: a decision input given for a log was
     * "MISMATCH ... not a decision record", exit 1, as if the log were tampered with) is refused as the wrong file,
     * exit 2, naming the first line; one such line among records stays a mismatch, exit 1.
     */
    @Test
    void aFileWithNoRecordAtAllIsRefusedNotAMismatch() throws Exception {
        Path input = Files.writeString(tmp.resolve("input.json"), "{\"tool\":\"wiki_read\",\"arguments\":{}}\n");
        Path notJson = Files.writeString(tmp.resolve("notes.txt"), "decisions of monday\n{\"truncated\":\n");
        for (Path wrong : List.of(input, notJson)) {
            Repo.Result r = Repo.cli("replay", wrong.toString());
            assertEquals(2, r.rc(), r.out() + r.err());
            assertTrue(r.err().startsWith("gatehouse: no line of " + wrong + " is a decision-log record (the first, "
                    + wrong + ":1: not a "), r.err());
        }
        Path mixed = Files.writeString(tmp.resolve("mixed.jsonl"), lines(honest("00000000-0000-4000-8000-0"
                + "00000000002")) + "{\"tool\":\"wiki_read\"}\n");
        Repo.Result r = Repo.cli("replay", mixed.toString());
        assertEquals(1, r.rc(), r.out() + r.err());
        assertTrue(r.out().contains(mixed + ":2: not a decision record"), r.out());
    }

    /**
     * A log or values file that is not UTF-8 (found by a new user's trial: "Input length = 1") is refused naming
     * the file, the line and the byte offset in the file, exit 2.
     */
    @Test
    void aFileThatIsNotUtf8IsRefusedWithTheLineAndByteOffset() throws Exception {
        String good = lines(honest("00000000-0000-4000-8000-000000000001"));
        String second = honest("00000000-0000-4000-8000-000000000002").toString();
        int at = second.indexOf("notes/plan.md");
        for (int[] fault : List.of(new int[] {0xFF}, new int[] {0xC0, 0xAF}, new int[] {0xED, 0xB0, 0x80})) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            bytes.writeBytes(good.getBytes(StandardCharsets.UTF_8));
            bytes.writeBytes(second.substring(0, at).getBytes(StandardCharsets.UTF_8));
            for (int b : fault) {
                bytes.write(b);
            }
            bytes.writeBytes((second.substring(at) + "\n").getBytes(StandardCharsets.UTF_8));
            Path log = Files.write(tmp.resolve("decisions.jsonl"), bytes.toByteArray());

            Repo.Result r = Repo.cli("replay", log.toString());

            assertEquals(2, r.rc(), r.out() + r.err());
            assertEquals(List.of("gatehouse: " + log + ":2 is not valid UTF-8: byte offset " + (good.length() + at)
                    + String.format(" of the file (0x%02X)", fault[0])), r.err().lines().toList());
        }

        Path log = Files.writeString(tmp.resolve("decisions.jsonl"), good);
        Path values = Files.write(tmp.resolve("decisions.values.jsonl"), new byte[] {'{', '"', (byte) 0xE9, '\n'});
        Repo.Result r = Repo.cli("replay", log.toString());
        assertEquals(2, r.rc(), r.out() + r.err());
        assertEquals(List.of("gatehouse: " + values + ":1 is not valid UTF-8: byte offset 2 of the file (0xE9)"),
                r.err().lines().toList());

        Files.writeString(values, "{\"sha256\":\"a\",\"sha256\":\"b\",\"value\":\"x\"}\n");
        Repo.Result twice = Repo.cli("replay", log.toString());
        assertEquals(2, twice.rc(), twice.out() + twice.err());
        assertTrue(twice.err().startsWith("gatehouse: " + values + ":1: not JSON (line 1, column "), twice.err());
        assertTrue(twice.err().contains("Duplicate field 'sha256'"), twice.err());
    }

    /**
     * A log copied while its last line was being written (a new user's trial: a log whose last line was cut off was
     * "MISMATCH ... not a JSON record", exit 1, as if tampered with): a last line with no line break at its end that
     * is not whole JSON is reported and not replayed, cut at any byte, inside a character too; the lines before it
     * replay, exit 0. Whole but without its line break, it is replayed. The same in a values file: the cut entry is
     * not read, and a record needing it is skipped as missing. A log holding only a cut line is refused, exit 2.
     */
    @Test
    void aLastLineCutOffWhileBeingWrittenIsReportedNotAMismatch() throws Exception {
        String first = lines(honest("00000000-0000-4000-8000-000000000001"));
        byte[] second = record("00000000-0000-4000-8000-000000000002", "wiki_read", (JsonNode) Opa.JSON
                .createObjectNode().put("path", "notes/\u00e9t\u00e9.md")).toString().getBytes(StandardCharsets.UTF_8);
        int accent = new String(second, StandardCharsets.UTF_8).indexOf("\u00e9t") + 1; // inside the two bytes of é
        for (int cut : List.of(1, accent, second.length / 2, second.length - 1)) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            bytes.writeBytes(first.getBytes(StandardCharsets.UTF_8));
            bytes.write(second, 0, cut);
            Path log = Files.write(tmp.resolve("decisions.jsonl"), bytes.toByteArray());

            Repo.Result r = Repo.cli("replay", log.toString());

            assertEquals(0, r.rc(), cut + ": " + r.out() + r.err());
            assertTrue(r.out().contains("replayed 1 records"), r.out());
            assertTrue(r.out().contains("not replayed: the last line " + log + ":2 (" + cut + (cut == 1 ? " byte"
                    : " bytes") + ") is cut off"), r.out());
            assertTrue(r.out().contains("no mismatches"), r.out());
        }

        Path whole = Files.writeString(tmp.resolve("decisions.jsonl"), first + new String(second,
                StandardCharsets.UTF_8));
        Repo.Result replayed = Repo.cli("replay", whole.toString());
        assertEquals(0, replayed.rc(), replayed.out() + replayed.err());
        assertTrue(replayed.out().contains("replayed 2 records"), replayed.out());
        assertTrue(!replayed.out().contains("cut off"), replayed.out());

        Path only = Files.write(tmp.resolve("only.jsonl"), java.util.Arrays.copyOf(second, 40));
        Repo.Result refused = Repo.cli("replay", only.toString());
        assertEquals(2, refused.rc(), refused.out() + refused.err());
        assertTrue(refused.err().startsWith("gatehouse: no whole decision-log record in " + only
                + ", only a cut-off last line (" + only + ":1 (40 bytes))"), refused.err());
        // Beside a file with records, a file holding only a cut line is said to be cut, not empty (the trial's
        // "no records in ...: empty" was false).
        Repo.Result beside = Repo.cli("replay", only.toString(), whole.toString());
        assertEquals(0, beside.rc(), beside.out() + beside.err());
        assertTrue(beside.out().contains("not replayed: the last line " + only + ":1 (40 bytes) is cut off"),
                beside.out());
        assertTrue(!beside.out().contains("no records in"), beside.out());

        ObjectNode needing = longWrite("00000000-0000-4000-8000-000000000003");
        String entry = standIn(needing, "/input/arguments/path");
        standIn(needing, "/result/obligations/wikiPaths/path");
        String resolved = standIn(needing, "/obligations/wikiPaths/path");
        Path log = Files.writeString(tmp.resolve("decisions.jsonl"), first + lines(needing));
        Path values = Files.writeString(tmp.resolve("decisions.values.jsonl"), resolved
                + entry.substring(0, entry.length() / 2));
        Repo.Result r = Repo.cli("replay", log.toString());
        assertEquals(0, r.rc(), r.out() + r.err());
        assertTrue(r.out().contains("not read: the last line of a values file " + values + ":2 ("
                + (entry.length() / 2) + " bytes) is cut off"), r.out());
        assertTrue(r.out().contains("skipped 1 record(s) needing a value no values file holds"), r.out());
        assertTrue(r.out().contains("or one in a values file's cut-off last line"), r.out());
    }
}
