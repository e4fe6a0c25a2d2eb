package dev.gatehouse.gateway.gate;

import dev.gatehouse.facts.ArgumentEnvelope;
import dev.gatehouse.facts.DecisionArguments;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.gatehouse.facts.ArgumentLimits;
import dev.gatehouse.facts.DecisionInput.ArgumentError;
import dev.gatehouse.facts.ArgumentKeys;
import dev.gatehouse.facts.OmittedArgument;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.facts.SentArguments;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.gatehouse.gateway.support.ServedTools;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What of the arguments reaches the decision input, on the real schemas and the real closed-schema check. */
class DecisionArgumentsTest {

    private final ArgumentLimits limits = new ArgumentLimits();
    private final ToolTable table = ServedTools.table();

    private DecisionArguments.Prepared prepare(String tool, Map<String, Object> arguments) {
        ServedTool served = table.find(tool).orElseThrow();
        return DecisionArguments.prepare(Optional.of(served.schema()), served.row().readFields(), arguments, limits);
    }

    private static OmittedArgument omitted(String value) throws Exception {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        return new OmittedArgument(bytes.length,
                HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)));
    }

    /** Where and what an omitted string is, as {@code omittedArguments} lists it. */
    private static ObjectNode omissions(Map<String, OmittedArgument> omitted) {
        ObjectNode json = PolicyJson.MAPPER.createObjectNode();
        omitted.forEach((pointer, facts) -> json.putObject(pointer).put("length", facts.length())
                .put("sha256", facts.sha256()));
        return json;
    }

    /** Strings over 256 UTF-8 bytes the policy does not read are replaced, at any depth; what it reads never is. */
    @Test
    void longUnreadStringsAreOmittedAtAnyDepthAndReadFieldsAreSentWhole() throws Exception {
        String page = "x".repeat(512 * 1024);
        String longPath = "notes/" + "p".repeat(2_000) + ".md";
        Map<String, Object> arguments = new LinkedHashMap<>(Map.of("path", longPath, "content", page));
        DecisionArguments.Prepared prepared = prepare("wiki_write", arguments);
        assertEquals(PolicyJson.MAPPER.createObjectNode().put("path", longPath).putNull("content"),
                prepared.arguments().json().orElseThrow());
        assertEquals(omissions(Map.of("/content", omitted(page))), prepared.arguments().omitted());
        assertEquals(List.of(), prepared.errors(), "validated as received, before anything was omitted");
        assertEquals(page, arguments.get("content"), "the handler's arguments are untouched");

        String cjk = "漢".repeat(86); // 258 bytes in 86 chars
        String ascii = "a".repeat(256);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("notes", List.of(cjk, ascii, Map.of("deep", cjk)));
        result.put("kept", "漢".repeat(85));
        SentArguments sent = prepare("project_work_submit", Map.of("runId", "r1", "runRevision", "run:1",
                "assignmentRevision", "position:1", "result", result)).arguments();
        JsonNode sentResult = sent.json().orElseThrow().get("result");
        assertEquals(PolicyJson.MAPPER.readTree("[null, \"" + ascii + "\", {\"deep\": null}]"),
                sentResult.get("notes"));
        assertEquals("漢".repeat(85), sentResult.get("kept").textValue(), "255 bytes: kept");
        assertEquals(omissions(Map.of("/result/notes/0", omitted(cjk), "/result/notes/2/deep", omitted(cjk))),
                sent.omitted());
        assertEquals(List.of("/result/notes/0", "/result/notes/2/deep"), iterate(sent.omitted().fieldNames()),
                "in document order");
    }

    private static List<String> iterate(Iterator<String> names) {
        List<String> list = new ArrayList<>();
        names.forEachRemaining(list::add);
        return list;
    }

    /** Beyond the envelope: not validated, only the plain values of the fields the policy reads, one error. */
    @Test
    void argumentsBeyondTheEnvelopeSendOnlyTheReadFieldsAndOneError() {
        Map<String, Object> wide = new LinkedHashMap<>(Map.of("path", "../escape.md", "content", "x"));
        for (int i = 0; i < 20_000; i++) {
            wide.put("member" + i, "v");
        }
        DecisionArguments.Prepared prepared = prepare("wiki_write", wide);
        assertEquals(PolicyJson.MAPPER.createObjectNode().put("path", "../escape.md"),
                prepared.arguments().json().orElseThrow());
        assertEquals(List.of(new ArgumentKeys.ArgumentKey("/path", "path", "path")), prepared.keys(),
                "the keys of what is sent");
        ArgumentError error = prepared.errors().get(0);
        assertEquals(List.of(new ArgumentError(ArgumentEnvelope.KEYWORD, "", Optional.empty(),
                "arguments: more than 8 members and array items the schema does not declare, at any depth")),
                prepared.errors());
        assertSame(ArgumentEnvelope.KEYWORD, error.keyword());

        Map<String, Object> objectPath = new LinkedHashMap<>(wide);
        objectPath.put("path", Map.of("nested", "x"));
        DecisionArguments.Prepared container = prepare("wiki_write", objectPath);
        assertEquals(PolicyJson.MAPPER.createObjectNode(), container.arguments().json().orElseThrow(),
                "a container is not a plain value");
        assertEquals(List.of(), container.keys());
    }

    /**
     * A value the policy reads that is longer than its schema admits (its {@code maxLength}, or the longest of its
     * {@code enum}) is omitted like a long unread string, for every read field of every served tool, within the
     * envelope and beyond it; one exactly as long as the schema admits is sent whole. Lengths are code points, as
     * JSON Schema counts them: a string of astral characters twice as long in chars is still within.
     */
    @Test
    void aReadValueLongerThanItsSchemaAdmitsIsOmittedAndOneAsLongIsSent() throws Exception {
        int fields = 0;
        for (ServedTool tool : table.all()) {
            Map<?, ?> properties = (Map<?, ?>) tool.schema().inputSchema().get("properties");
            for (String field : tool.row().readFields()) {
                Map<?, ?> schema = (Map<?, ?>) properties.get(field);
                int longest = schema.get("maxLength") instanceof Number max ? max.intValue()
                        : schema.get("enum") instanceof List<?> values
                        ? values.stream().mapToInt(v -> ((String) v).length()).max().orElseThrow() : -1;
                if (longest < 0) {
                    continue;
                }
                fields++;
                for (String unit : List.of("a", "\u6f22", "\ud83d\ude00")) {
                    String within = unit.repeat(longest);
                    String over = unit.repeat(longest + 1);
                    assertEquals(TextNode.valueOf(within), sentValue(tool, field, within, false), tool.name() + field);
                    assertEquals(TextNode.valueOf(within), sentValue(tool, field, within, true), tool.name() + field);
                    for (boolean wide : List.of(false, true)) {
                        DecisionArguments.Prepared prepared = prepare(tool.name(), arguments(field, over, wide));
                        String where = tool.name() + " " + field + (wide ? " beyond the envelope" : "");
                        assertEquals(NullNode.getInstance(), prepared.arguments().json().orElseThrow().get(field),
                                where);
                        assertEquals(omissions(Map.of("/" + field, omitted(over))).get("/" + field),
                                prepared.arguments().omitted().get("/" + field), where);
                    }
                }
            }
        }
        assertEquals(13, fields, "the paths, thread ids and modes of the served tools");
    }

    /** A thread id longer than its schema admits names no target: the PIP does not look it up, the input has none. */
    @Test
    void aThreadIdLongerThanItsSchemaAdmitsNamesNoTarget() {
        for (String tool : List.of("t3_thread_send", "t3_thread_interrupt")) {
            Optional<ServedTool> served = table.find(tool);
            int longest = ((Number) ((Map<?, ?>) ((Map<?, ?>) served.orElseThrow().schema().inputSchema()
                    .get("properties")).get("threadId")).get("maxLength")).intValue();
            String within = "t".repeat(longest);
            assertEquals(List.of(within), ToolCallRequest.targetThreadIds(served, Map.of("threadId", within)), tool);
            assertEquals(List.of(), ToolCallRequest.targetThreadIds(served, Map.of("threadId", within + "t")), tool);
            assertEquals(List.of(), ToolCallRequest.targetThreadIds(served, Map.of("threadId", 7)), tool);
        }
    }

    private JsonNode sentValue(ServedTool tool, String field, String value, boolean wide) {
        return prepare(tool.name(), arguments(field, value, wide)).arguments().json().orElseThrow().get(field);
    }

    /** {@code field} set to {@code value}; with {@code wide}, 20 undeclared members too, beyond the envelope. */
    private static Map<String, Object> arguments(String field, String value, boolean wide) {
        Map<String, Object> arguments = new LinkedHashMap<>();
        arguments.put(field, value);
        for (int i = 0; wide && i < 20; i++) {
            arguments.put("member" + i, "v");
        }
        return arguments;
    }

    @Test
    void aNonObjectArgumentIsOmittedWholeWhenLong() throws Exception {
        String text = "y".repeat(300);
        SentArguments sent = DecisionArguments.prepare(Optional.empty(), Set.of("path"), text, limits).arguments();
        assertEquals(NullNode.getInstance(), sent.json().orElseThrow());
        assertEquals(omissions(Map.of("", omitted(text))), sent.omitted());
        assertEquals(TextNode.valueOf("short"), DecisionArguments.prepare(Optional.empty(), Set.of(), "short", limits)
                .arguments().json().orElseThrow());
    }
}
