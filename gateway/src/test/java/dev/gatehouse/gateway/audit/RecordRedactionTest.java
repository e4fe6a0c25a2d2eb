package dev.gatehouse.gateway.audit;

import static dev.gatehouse.gateway.audit.AuditFixtures.THREAD;
import static dev.gatehouse.gateway.support.LoggedRecords.longStrings;
import static dev.gatehouse.gateway.support.LoggedRecords.restore;
import static dev.gatehouse.gateway.audit.AuditFixtures.values;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.facts.ArgumentFacts;
import dev.gatehouse.facts.ArgumentLimits;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.facts.SentArguments;
import dev.gatehouse.gateway.gate.ServedTool;
import dev.gatehouse.gateway.support.ServedTools;
import dev.gatehouse.gateway.policy.Schemas;
import dev.gatehouse.facts.CallerFacts;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.gateway.policy.api.Obligations;
import dev.gatehouse.facts.OmittedArgument;
import dev.gatehouse.gateway.policy.api.PolicyFault;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.facts.ThreadShell;
import dev.gatehouse.facts.WrittenInput;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * No value a caller controls grows a record: for long values of every kind (ASCII, 2-, 3- and 4-byte UTF-8) in
 * every place a record copies caller text (argument values and names at any depth, the tool name, the unicode
 * facts, thread targets, omitted-argument pointers, argument errors, every obligation kind, reasons, the fault,
 * the caller, a notice), every string and member name in the line is at most the bound, the line holds no copy of
 * the value, the value is kept exactly once, the line is schema-valid, and putting the values back gives the record
 * exactly as evaluated (so it replays).
 */
class RecordRedactionTest {

    private static final int BOUND = 256;
    private static final int RECORD = 16 * 1024;

    /** Over the bound in UTF-8 bytes, each by a few bytes; none over it in characters but the first. */
    private static final List<String> LONG = List.of("p".repeat(300), "\u00e9".repeat(129), "\u6f22".repeat(86),
            "\ud83d\ude00".repeat(65));

    private static final Decision ALLOW = new Decision(true, List.of(), new Obligations(Map.of(),
            Map.of("path", "agents/a1/page.md"), Optional.of("agents/a1")), "rev-1", 5, Optional.of("default"));

    private static DecisionRecord call(Map<String, Object> arguments) {
        return DecisionRecord.forCall(new DecisionInput(Optional.of("wiki_read"), Optional.of(arguments), List.of(),
                THREAD, Map.of()), new PolicyOutcome.Decided<>(ALLOW));
    }

    private static DecisionRecord call(DecisionInput input, Decision decision) {
        return DecisionRecord.forCall(input, new PolicyOutcome.Decided<>(decision));
    }

    /** Every place a caller's {@code v} reaches a record, by name. */
    private static Map<String, Function<String, DecisionRecord>> places() {
        Map<String, Function<String, DecisionRecord>> places = new LinkedHashMap<>();
        places.put("argument value", v -> call(Map.of("path", v)));
        places.put("nested value", v -> call(Map.of("path", "page.md", "a", Map.of("b", v))));
        places.put("array item", v -> call(Map.of("path", "page.md", "list", List.of("x", v))));
        places.put("deep item", v -> call(Map.of("path", "page.md", "a", List.of(Map.of("b", List.of(v))))));
        places.put("argument name", v -> call(Map.of("path", "page.md", v, "x")));
        places.put("nested name", v -> call(Map.of("path", "page.md", "a", Map.of(v, 1))));
        places.put("name and value", v -> call(Map.of("path", "page.md", v, v)));
        places.put("name over a long value", v -> call(Map.of("path", "page.md", v, Map.of(v + "2", v + "3"))));
        places.put("digest-like name beside", v -> call(Map.of("path", "page.md", v, 1,
                RecordRedactor.KEY_PREFIX + OmittedArgument.ifLonger(v, BOUND).orElseThrow().sha256(), 2)));
        places.put("tool name", v -> DecisionRecord.forCall(new DecisionInput(Optional.of(v),
                Optional.of(Map.of()), List.of(), THREAD, Map.of()), new PolicyOutcome.Decided<>(
                new Decision(false, List.of(new Decision.Reason("unknown_tool", "no such tool")), Obligations.NONE,
                        "rev-1", 5))));
        places.put("unicode segment", v -> call(new DecisionInput(Optional.of("wiki_read"), Optional.of(
                Map.of("path", v)), List.of(), THREAD, Map.of(), Map.of(v, List.of("Ll"))), ALLOW));
        places.put("unicode, many short segments", v -> {
            Map<String, List<String>> unicode = new TreeMap<>();
            for (int i = 0; i < 40; i++) {
                unicode.put(i + v.substring(0, 6), List.of("Ll"));
            }
            return call(new DecisionInput(Optional.of("wiki_read"), Optional.of(Map.of("path", "x")), List.of(),
                    THREAD, Map.of(), unicode), ALLOW);
        });
        places.put("thread target", v -> call(new DecisionInput(Optional.of("t3_thread_read"), Optional.of(
                Map.of("threadId", v)), List.of(), THREAD, Map.of(v, ThreadShell.of(ThreadShell.Lookup.NOT_FOUND))), new Decision(false, List.of(new Decision.Reason("thread_not_found",
                        "target thread could not be found: " + v)), Obligations.NONE, "rev-1", 5)));
        places.put("omitted argument name", v -> call(Map.of("path", "page.md", v,
                new OmittedArgument(1000, "0".repeat(64)))));
        places.put("argument error", v -> call(new DecisionInput(Optional.of("wiki_read"), Optional.of(
                Map.of("path", "page.md")), List.of(new DecisionInput.ArgumentError("additionalProperties", "/" + v,
                Optional.of(v), "must not have " + v)), THREAD, Map.of()), ALLOW));
        places.put("wiki path obligation", v -> call(new DecisionInput(Optional.of("wiki_read"), Optional.of(
                Map.of("path", v)), List.of(), THREAD, Map.of()), new Decision(true, List.of(),
                new Obligations(Map.of(), Map.of("path", "agents/a1/" + v), Optional.of("agents/a1")), "rev-1", 5)));
        places.put("mode obligation", v -> call(new DecisionInput(Optional.of("t3_thread_launch"), Optional.of(
                Map.of("runtimeMode", v)), List.of(), THREAD, Map.of()), new Decision(true, List.of(),
                new Obligations(Map.of("runtimeMode", v), Map.of(), Optional.empty()), "rev-1", 5)));
        places.put("reason message", v -> call(read(v), new Decision(false, List.of(
                new Decision.Reason("schema", "bad: " + v), new Decision.Reason(v, "a code too")), Obligations.NONE,
                "rev-1", 5)));
        places.put("fault detail", v -> DecisionRecord.forCall(read(v), new PolicyOutcome.Failed<>(
                new PolicyFault(PolicyFault.EVALUATION_ERROR, "failed on " + v))));
        places.put("caller", v -> call(new DecisionInput(Optional.of("wiki_read"), Optional.of(
                Map.of("path", "page.md")), List.of(), new CallerFacts("outside_agent", v, Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.of("full-access"), THREAD.settings(), Optional.empty()),
                Map.of()), ALLOW));
        places.put("listing", v -> DecisionRecord.forListing(DecisionInput.forListing(new CallerFacts(
                "outside_agent", v, Optional.empty(), Optional.empty(), Optional.empty(), Optional.of("full-access"),
                THREAD.settings(), Optional.empty())), new PolicyOutcome.Decided<>(
                new dev.gatehouse.gateway.policy.api.VisibleTools(List.of("wiki_read"), "rev-1", 3))));
        places.put("notice", v -> {
            ObjectNode input = PolicyJson.MAPPER.createObjectNode();
            input.putObject("notice").put("kind", "assignment").put("title", v).putObject("meta").put(v, v);
            return DecisionRecord.forNotice(input, "a1", new PolicyOutcome.Decided<>(ALLOW));
        });
        return places;
    }

    private static DecisionInput read(String path) {
        return new DecisionInput(Optional.of("wiki_read"), Optional.of(Map.of("path", path)), List.of(), THREAD,
                Map.of());
    }

    /** The record as evaluated: nothing replaced but the masked arguments. */
    private static JsonNode asEvaluated(DecisionRecord record) throws Exception {
        JsonNode whole = PolicyJson.MAPPER.readTree(DecisionRecordJson.encode(record, Integer.MAX_VALUE,
                Integer.MAX_VALUE).line());
        assertFalse(whole.has("redacted") || whole.has("redactedKeys") || whole.has("reduced"));
        return whole;
    }

    /**
     * A call's record made from the input the PEP wrote once for the PDP ({@link WrittenInput}) is byte for byte the
     * record made from the input alone, with the same values kept, wherever a value is long or short, in reduced
     * lines, and with a masked argument (only its id and time differ).
     */
    @Test
    void aRecordOfTheWrittenInputIsTheRecordOfTheInput() throws Exception {
        List<String> values = new ArrayList<>(LONG);
        values.add("a-short");
        Map<String, Function<String, DecisionRecord>> places = new LinkedHashMap<>(places());
        places.put("masked argument", v -> call(Map.of("path", "page.md", "apiToken", v)));
        places.put("masked nested argument", v -> call(Map.of("path", "page.md", "a", Map.of("password", v))));
        int compared = 0;
        for (Map.Entry<String, Function<String, DecisionRecord>> place : places.entrySet()) {
            for (String value : values) {
                if (value.equals("a-short") && place.getKey().startsWith("digest-like")) {
                    continue; // the place names the digest of a long value
                }
                DecisionRecord plain = place.getValue().apply(value);
                if (plain.method() != DecisionRecord.Method.TOOLS_CALL || plain.refusedTool().isPresent()) {
                    continue;
                }
                DecisionRecord written = DecisionRecord.forCall(plain.input(), WrittenInput.forCall(plain.input()),
                        Optional.empty(), (PolicyOutcome<Decision>) plain.outcome(), plain.admission());
                // Whole, and reduced with every reason message a stand-in: no line is near either bound, so
                // ids and times of other lengths cannot tip one record over it and not the other.
                for (int maxRecord : new int[] {RECORD, 1}) {
                    String where = place.getKey() + ", " + value.length() + " chars, lines up to " + maxRecord;
                    assertEquals(whole(plain, plain, maxRecord), whole(written, plain, maxRecord), where);
                    compared++;
                }
            }
        }
        assertTrue(compared > 100, "compared " + compared);
    }

    /**
     * {@link RecordRedactor#changes} says of an input exactly whether redacting it changes it, for every place a
     * caller's value reaches the input, long and short, masked or named like a credential where nothing is masked
     * (a unicode segment, a thread target): a record logs the written input's text only when redaction would leave it
     * as it is.
     */
    @Test
    void anInputIsLoggedAsWrittenExactlyWhenRedactingChangesNothingInIt() {
        List<String> values = new ArrayList<>(LONG);
        values.addAll(List.of("a-short", "apiToken", "x".repeat(BOUND)));
        Map<String, Function<String, DecisionRecord>> places = new LinkedHashMap<>(places());
        places.put("masked argument", v -> call(Map.of("path", "page.md", "apiToken", v)));
        places.put("masked nested argument", v -> call(Map.of("path", "page.md", "a", List.of(Map.of("password", v)))));
        places.put("masked name, empty value", v -> call(Map.of("path", "page.md", "secret", Map.of())));
        int unchanged = 0;
        int changed = 0;
        for (Map.Entry<String, Function<String, DecisionRecord>> place : places.entrySet()) {
            for (String value : values) {
                if (place.getKey().startsWith("digest-like") && OmittedArgument.ifLonger(value, BOUND).isEmpty()) {
                    continue; // the place names the digest of a long value
                }
                DecisionRecord record = place.getValue().apply(value);
                if (record.method() != DecisionRecord.Method.TOOLS_CALL) {
                    continue;
                }
                JsonNode input = WrittenInput.forCall(record.input()).orElseThrow().json();
                ObjectNode redacted = PolicyJson.MAPPER.createObjectNode();
                redacted.set("input", input.deepCopy());
                RecordRedactor.redact(redacted, BOUND);
                boolean changes = !redacted.get("input").equals(input);
                assertEquals(changes, RecordRedactor.changes(input, BOUND), place.getKey() + ", " + value);
                if (changes) {
                    changed++;
                } else {
                    unchanged++;
                }
            }
        }
        assertTrue(changed > 20 && unchanged > 20, changed + " changed, " + unchanged + " unchanged");
    }

    /**
     * The text of {@code record}'s line, its id and time replaced by {@code as}'s, and of every value it keeps (the
     * whole record of a reduced line so replaced too; a reduced line's length and SHA-256 of it left out, as they
     * count the id and time), sorted: what must not depend on how the input was written.
     */
    private static List<String> whole(DecisionRecord record, DecisionRecord as, int maxRecord) throws Exception {
        RecordLine line = DecisionRecordJson.encode(record, BOUND, maxRecord);
        List<String> texts = new ArrayList<>();
        texts.add(new String(line.line(), StandardCharsets.UTF_8));
        for (JsonNode value : values(line).values()) {
            texts.add(PolicyJson.write(value));
        }
        List<String> same = new ArrayList<>();
        for (String text : texts) {
            same.add(text.replace(record.decisionId().toString(), as.decisionId().toString())
                    .replace(record.timestamp().toString(), as.timestamp().toString())
                    .replaceAll("\"reduced\":\\{\"length\":\\d+,\"sha256\":\"[0-9a-f]{64}\"", "\"reduced\":{"));
        }
        same.sort(null);
        return same;
    }

    @Test
    void everyLongValueEverywhereIsKeptOnceAndPutBackExactly() throws Exception {
        List<String> checked = new ArrayList<>();
        for (Map.Entry<String, Function<String, DecisionRecord>> place : places().entrySet()) {
            for (String value : LONG) {
                String what = place.getKey() + " / " + value.codePointAt(0);
                DecisionRecord record = place.getValue().apply(value);
                RecordLine encoded = DecisionRecordJson.encode(record, BOUND, RECORD);
                String text = new String(encoded.line(), StandardCharsets.UTF_8);
                JsonNode line = PolicyJson.MAPPER.readTree(text);

                assertTrue(encoded.line().length <= RECORD, what);
                assertFalse(line.has("reduced"), what);
                assertEquals(List.of(), longStrings(line, BOUND), what + ": " + text);
                assertFalse(text.contains(value), what + ": a copy of the value is left: " + text);
                assertTrue(line.has("redacted") || line.has("redactedKeys"), what);
                assertEquals(List.of(), Schemas.errors("decision-log-record.json", line), what + ": " + text);
                JsonNode evaluated = asEvaluated(record);
                if (longStrings(evaluated, BOUND).contains(value)) {
                    assertEquals(1, encoded.values().stream().filter(v -> v.sha256().equals(
                            OmittedArgument.ifLonger(value, BOUND).orElseThrow().sha256()) && !v.json()).count(),
                            what + ": the value is kept once");
                } else { // only pieces of it: the unicode facts as one JSON value
                    assertEquals(1, encoded.values().stream().filter(StoredValue::json).count(), what);
                }
                assertEquals(encoded.values().size(), encoded.values().stream().map(StoredValue::key).distinct()
                        .count(), what + ": no value twice");
                assertEquals(evaluated, restore(line, values(encoded)), what + ": put back");
                checked.add(what);
            }
        }
        assertEquals(places().size() * LONG.size(), checked.size());
    }

    /** At the bound a value stays, one byte over it does not, however many bytes its characters take. */
    @Test
    void aValueAtTheBoundIsLoggedAsItIs() throws Exception {
        for (String unit : List.of("a", "\u00e9", "\u6f22", "\ud83d\ude00")) {
            int width = unit.getBytes(StandardCharsets.UTF_8).length;
            String kept = unit.repeat(BOUND / width) + "a".repeat(BOUND % width); // 256 bytes
            String name = unit.repeat(BOUND / width - 1) + "a".repeat(BOUND % width + width - 1); // 255 bytes,
            // and its pointer "/<name>" 256
            RecordLine encoded = DecisionRecordJson.encode(call(Map.of("path", kept, name, 1)), BOUND, RECORD);
            JsonNode line = PolicyJson.MAPPER.readTree(encoded.line());
            assertEquals(kept, line.at("/input/arguments/path").asText());
            assertTrue(line.path("input").path("arguments").has(name));
            assertFalse(line.has("redacted") || line.has("redactedKeys"), line.toString());
            assertEquals(List.of(), encoded.values());

            RecordLine over = DecisionRecordJson.encode(call(Map.of("path", kept + "a")), BOUND, RECORD);
            JsonNode overLine = PolicyJson.MAPPER.readTree(over.line());
            assertEquals("/input/arguments/path", overLine.at("/redacted/0").asText(), overLine.toString());
            assertEquals(BOUND + 1, overLine.at("/input/arguments/path/length").asInt());
        }
    }

    /** A credential a caller also put in a field that is logged is never kept in the values file. */
    @Test
    void aMaskedValueIsNeverKeptEvenWhereItIsAlsoLoggedUnmasked() throws Exception {
        for (String secret : LONG) {
            RecordLine encoded = DecisionRecordJson.encode(call(Map.of("path", secret, "apiToken", secret,
                    "auth", Map.of("password", List.of("x", secret)))), BOUND, RECORD);
            String text = new String(encoded.line(), StandardCharsets.UTF_8);
            assertFalse(text.contains(secret));
            for (StoredValue value : encoded.values()) {
                assertFalse(new String(value.entry(), StandardCharsets.UTF_8).contains(secret), "kept: " + secret);
            }
            JsonNode line = PolicyJson.MAPPER.readTree(text);
            assertEquals(ArgumentMasker.MASK, line.at("/input/arguments/apiToken"));
            assertEquals(ArgumentMasker.MASK, line.at("/input/arguments/auth/password"));
            assertThrows(AssertionError.class, () -> restore(line, values(encoded)),
                    "a replay is told the value was not kept");
        }
    }

    /**
     * A record too long after redaction (64 members of business data just under the bound) is written reduced: the
     * decision, reasons, ids, caller and revision stay, the whole record is kept once and comes back whole.
     */
    @Test
    void aRecordOverTheBoundIsWrittenReducedAndComesBackWhole() throws Exception {
        Map<String, Object> result = new LinkedHashMap<>();
        for (int i = 0; i < 64; i++) {
            result.put("member" + i, i + "r".repeat(240));
        }
        Decision deny = new Decision(false, List.of(new Decision.Reason("schema", "no")), Obligations.NONE, "rev-9",
                7, Optional.of("default"));
        DecisionRecord record = call(new DecisionInput(Optional.of("project_work_submit"), Optional.of(Map.of(
                "runId", "r1", "result", result)), List.of(), THREAD, Map.of()), deny);

        RecordLine encoded = DecisionRecordJson.encode(record, BOUND, RECORD);
        JsonNode line = PolicyJson.MAPPER.readTree(encoded.line());

        assertTrue(encoded.line().length <= RECORD, encoded.line().length + " bytes");
        assertTrue(line.path("reduced").path("length").asInt() > RECORD, line.toString());
        assertTrue(line.path("reduced").path("json").asBoolean());
        assertEquals(record.decisionId().toString(), line.get("decision_id").asText());
        assertFalse(line.get("allow").asBoolean());
        assertEquals("schema", line.at("/reasons/0/code").asText());
        assertEquals("rev-9", line.at("/bundles/gatehouse/revision").asText());
        assertEquals("a1", line.at("/caller/logicalAgentId").asText());
        assertFalse(line.has("input") || line.has("result"));
        assertEquals(List.of(), Schemas.errors("decision-log-record.json", line), line.toString());
        assertEquals(asEvaluated(record), restore(line, values(encoded)));
    }

    /** Even a reduced line with many long reason messages stays within the smallest bound allowed. */
    @Test
    void aReducedLineWithManyLongReasonsKeepsTheirCodes() throws Exception {
        List<Decision.Reason> reasons = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            reasons.add(new Decision.Reason("code_" + i, i + "m".repeat(250)));
        }
        DecisionRecord record = call(AuditFixtures.WRITE, new Decision(false, reasons, Obligations.NONE, "rev", 1));
        int smallest = DecisionLogConfiguration.MIN_RECORD_BYTES;

        RecordLine encoded = DecisionRecordJson.encode(record, BOUND, smallest);
        JsonNode line = PolicyJson.MAPPER.readTree(encoded.line());

        assertTrue(encoded.line().length <= smallest, encoded.line().length + " bytes");
        assertEquals(20, line.get("reasons").size());
        assertEquals("code_19", line.at("/reasons/19/code").asText());
        assertTrue(line.at("/reasons/19/message").has("sha256"));
        assertEquals(List.of(), Schemas.errors("decision-log-record.json", line), line.toString());
        assertEquals(asEvaluated(record), restore(line, values(encoded)));
    }

    /**
     * A record whose input was not written before ({@link DecisionRecord#forCall(DecisionInput, PolicyOutcome)}) is
     * written from the input's facts, whose argument nodes are set into it, not copied ({@link SentArguments}): its
     * redaction changes a copy, so the record encodes alike every time and the facts keep each value whole. Long
     * values where the policy reads them (sent whole, so redacted in the record) and where it does not (omitted).
     */
    @Test
    void aRecordWrittenFromTheFactsRedactsACopyOfTheirNodes() {
        ServedTool tool = ServedTools.of("wiki_write");
        for (String value : LONG) {
            for (String member : List.of("path", "content", "nested")) {
                Map<String, Object> arguments = new LinkedHashMap<>(Map.of("path", "page.md", "content", "x"));
                arguments.put(member, member.equals("nested") ? Map.of(value, 1) : value);
                ArgumentFacts facts = ArgumentFacts.of(Optional.of(tool.schema()), Optional.of(tool.row()),
                        arguments, new ArgumentLimits(), THREAD.subtreeIds());
                String sent = PolicyJson.write(facts.arguments().json().orElseThrow());
                DecisionRecord record = call(new DecisionInput("wiki_write", facts, THREAD, Map.of()), ALLOW);
                byte[] first = DecisionRecordJson.encode(record, BOUND, RECORD).line();
                assertFalse(new String(first, StandardCharsets.UTF_8).contains(value), member);
                assertEquals(new String(first, StandardCharsets.UTF_8), new String(DecisionRecordJson.encode(record,
                        BOUND, RECORD).line(), StandardCharsets.UTF_8), member);
                assertEquals(sent, PolicyJson.write(facts.arguments().json().orElseThrow()), member);
            }
        }
    }
}
