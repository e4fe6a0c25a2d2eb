package dev.gatehouse.gateway.mcp.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.facts.ArgumentKeys;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 8 item 4: a member whose name only looks like a JSON-RPC/MCP member name is refused at the top level and in
 * params, beside the real member and alone, and nothing below those levels is affected. The variants are generated
 * here from the names, independently of the guard's folding.
 */
class LookAlikeMemberTest {

    static final String LOOK_ALIKE = "member name looks like a protocol member name";
    static final String DUPLICATE = "duplicate member name";

    private final JsonRpcGuard guard = new JsonRpcGuard(64);

    /** Where each protocol member lives in the base request, and a value for a second member beside it. */
    record Slot(boolean inParams, String realValue, String otherValue) {
    }

    static final Map<String, Slot> SLOTS = Map.of(
            "jsonrpc", new Slot(false, "\"2.0\"", "\"1.0\""),
            "id", new Slot(false, "1", "2"),
            "method", new Slot(false, "\"tools/call\"", "\"ping\""),
            "params", new Slot(false, "{\"name\":\"wiki_read\",\"arguments\":{\"path\":\"a\"}}",
                    "{\"name\":\"wiki_write\",\"arguments\":{\"path\":\"a\",\"content\":\"x\"}}"),
            "name", new Slot(true, "\"wiki_read\"", "\"wiki_write\""),
            "arguments", new Slot(true, "{\"path\":\"a\"}", "{\"path\":\"../b\"}"),
            "_meta", new Slot(true, "{\"progressToken\":1}", "{\"progressToken\":2}"));

    static final List<String> TOP = List.of("jsonrpc", "id", "method", "params");
    static final List<String> IN_PARAMS = List.of("name", "arguments", "_meta");

    /** Cyrillic and Greek letters that look like the lower-case Latin letters of the seven names. */
    static final Map<Character, String> HOMOGLYPHS_LOWER = Map.ofEntries(
            Map.entry('a', "\u0430\u03b1"), Map.entry('c', "\u0441"), Map.entry('e', "\u0435"),
            Map.entry('i', "\u0456\u03b9"), Map.entry('j', "\u0458\u03f3"), Map.entry('m', "\u043c"),
            Map.entry('o', "\u043e\u03bf"), Map.entry('p', "\u0440\u03c1"), Map.entry('r', "\u0433"),
            Map.entry('s', "\u0455"), Map.entry('t', "\u0442\u03c4"), Map.entry('d', "\u0501"),
            Map.entry('n', "\u03b7"), Map.entry('g', "\u050d"), Map.entry('u', "\u03c5"), Map.entry('h', "\u04bb"));
    /** Cyrillic and Greek capitals that look like the Latin capitals (for upper-cased names). */
    static final Map<Character, String> HOMOGLYPHS_UPPER = Map.ofEntries(
            Map.entry('A', "\u0410\u0391"), Map.entry('C', "\u0421"), Map.entry('E', "\u0415\u0395"),
            Map.entry('I', "\u0406\u0399"), Map.entry('J', "\u0408"), Map.entry('M', "\u041c\u039c"),
            Map.entry('O', "\u041e\u039f"), Map.entry('P', "\u0420\u03a1"), Map.entry('S', "\u0405"),
            Map.entry('T', "\u0422\u03a4"), Map.entry('N', "\u039d"), Map.entry('G', "\u050c"),
            Map.entry('H', "\u041d\u0397"));
    static final List<String> ZERO_WIDTH = List.of("\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\u2060",
            "\ufeff", "\u00ad");
    static final List<String> SPACES = List.of(" ", "\t", "\n", "\u00a0", "\u2003", "\u3000");
    /** Mathematical bold, sans-serif and monospace small a, and circled small a: NFKC maps each run to a–z. */
    static final List<Integer> COMPATIBLE_SMALL_A = List.of(0x1D41A, 0x1D5BA, 0x1D68A, 0x24D0);

    /** Every generated look-alike of {@code name}, each with the kind that produced it. */
    static List<String[]> variants(String name) {
        Set<String> seen = new LinkedHashSet<>();
        List<String[]> out = new ArrayList<>();
        java.util.function.BiConsumer<String, String> add = (kind, v) -> {
            if (!v.equals(name) && seen.add(v)) {
                out.add(new String[] {kind, v});
            }
        };
        String upper = name.toUpperCase(java.util.Locale.ROOT);
        add.accept("case", upper);
        add.accept("case", Character.toUpperCase(name.charAt(0)) + name.substring(1));
        for (int i = 0; i < name.length(); i++) {
            add.accept("case", name.substring(0, i) + Character.toUpperCase(name.charAt(i)) + name.substring(i + 1));
        }
        add.accept("fullwidth", fullwidth(name));
        add.accept("fullwidth", fullwidth(upper));
        for (int i = 0; i < name.length(); i++) {
            add.accept("fullwidth", name.substring(0, i) + fullwidth(name.substring(i, i + 1)) + name.substring(i + 1));
        }
        for (int base : COMPATIBLE_SMALL_A) {
            StringBuilder b = new StringBuilder();
            name.chars().forEach(c -> {
                if (c >= 'a' && c <= 'z') {
                    b.appendCodePoint(base + c - 'a');
                } else {
                    b.append((char) c);
                }
            });
            add.accept("nfkc", b.toString());
        }
        if (name.startsWith("_")) {
            add.accept("nfkc", "\uff3f" + name.substring(1));
            add.accept("nfkc", "\ufe4d" + name.substring(1));
        }
        for (String zw : ZERO_WIDTH) {
            for (int i = 0; i <= name.length(); i++) {
                add.accept("zero-width", name.substring(0, i) + zw + name.substring(i));
            }
        }
        for (int i = 0; i < name.length(); i++) {
            String lower = HOMOGLYPHS_LOWER.getOrDefault(name.charAt(i), "");
            for (char h : lower.toCharArray()) {
                add.accept("homoglyph", name.substring(0, i) + h + name.substring(i + 1));
            }
            String capital = HOMOGLYPHS_UPPER.getOrDefault(upper.charAt(i), "");
            for (char h : capital.toCharArray()) {
                add.accept("homoglyph", upper.substring(0, i) + h + upper.substring(i + 1));
            }
        }
        StringBuilder all = new StringBuilder();
        for (char c : name.toCharArray()) {
            String lower = HOMOGLYPHS_LOWER.getOrDefault(c, "");
            all.append(lower.isEmpty() ? c : lower.charAt(0));
        }
        add.accept("homoglyph", all.toString());
        for (String space : SPACES) {
            add.accept("spaces", space + name);
            add.accept("spaces", name + space);
            add.accept("spaces", space + name + space);
        }
        for (int i = 1; i < name.length(); i++) {
            add.accept("separator", name.substring(0, i) + "_" + name.substring(i));
            add.accept("separator", name.substring(0, i) + "-" + name.substring(i));
        }
        String bare = name.replace("_", "");
        for (String sep : List.of("", "-", ".", "__", "$")) {
            add.accept("separator", sep + bare);
        }
        add.accept("separator", name + "_");
        for (int i = 1; i <= name.length(); i++) {
            add.accept("combining", name.substring(0, i) + "\u0301" + name.substring(i));
        }
        return out;
    }

    static String fullwidth(String s) {
        StringBuilder b = new StringBuilder();
        s.chars().forEach(c -> b.append(c > 0x20 && c < 0x7f ? (char) (c + 0xFEE0) : (char) c));
        return b.toString();
    }

    /** A JSON string literal; control characters escaped, everything else sent as raw UTF-8. */
    static String json(String s) {
        StringBuilder b = new StringBuilder("\"");
        s.chars().forEach(c -> {
            if (c == '"' || c == '\\') {
                b.append('\\').append((char) c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", c));
            } else {
                b.append((char) c);
            }
        });
        return b.append('"').toString();
    }

    /**
     * The base tools/call request with the member {@code real} handled as asked: kept, with {@code extra} added
     * before or after it ({@code mode} "before"/"after"), or replaced by {@code extra} ("alone").
     */
    static String request(String real, String extra, String mode) {
        StringBuilder top = new StringBuilder("{");
        StringBuilder params = new StringBuilder("{");
        for (String member : List.of("jsonrpc", "id", "method", "params", "name", "arguments", "_meta")) {
            Slot slot = SLOTS.get(member);
            StringBuilder into = slot.inParams() ? params : top;
            String value = member.equals("params") ? "@@PARAMS@@" : slot.realValue();
            if (member.equals(real) && mode.equals("before")) {
                member(into, json(extra), slot.otherValue());
            }
            member(into, member.equals(real) && mode.equals("alone") ? json(extra) : json(member),
                    mode.equals("alone") && member.equals(real) ? slot.otherValue() : value);
            if (member.equals(real) && mode.equals("after")) {
                member(into, json(extra), slot.otherValue());
            }
        }
        return top.append('}').toString().replace("@@PARAMS@@", params.append('}').toString());
    }

    private static void member(StringBuilder object, String name, String value) {
        if (object.length() > 1) {
            object.append(',');
        }
        object.append(name).append(':').append(value);
    }

    static Stream<Arguments> lookAlikes() {
        return ProtocolMembers.NAMES.stream()
                .flatMap(name -> variants(name).stream().map(v -> Arguments.of(name, v[0], v[1])));
    }

    private Rejection refused(String body) {
        JsonRpcGuard.Result result = guard.check(body.getBytes(StandardCharsets.UTF_8));
        return assertInstanceOf(JsonRpcGuard.Result.Refused.class, result, body).rejection();
    }

    private JsonRpcMessage passed(String body) {
        JsonRpcGuard.Result result = guard.check(body.getBytes(StandardCharsets.UTF_8));
        return assertInstanceOf(JsonRpcGuard.Result.Passed.class, result, body).message();
    }

    @Test
    void theBaseRequestPasses() {
        JsonRpcMessage message = passed(request("none", "", "none"));
        assertEquals(Optional.of("tools/call"), message.method());
        assertEquals("wiki_read", message.params().orElseThrow().get("name").textValue());
        assertTrue(message.meta("progressToken").isPresent());
    }

    @Test
    void everyNameHasVariantsOfEveryKind() {
        for (String name : ProtocolMembers.NAMES) {
            Set<String> kinds = new java.util.HashSet<>();
            variants(name).forEach(v -> kinds.add(v[0]));
            assertEquals(Set.of("case", "fullwidth", "nfkc", "zero-width", "homoglyph", "spaces", "separator",
                    "combining"), kinds, name);
        }
    }

    @ParameterizedTest(name = "{0} {1} {2} beside the real member")
    @MethodSource("lookAlikes")
    void aLookAlikeBesideTheRealMemberIsRefused(String name, String kind, String variant) {
        for (String mode : List.of("before", "after")) {
            Rejection rejection = refused(request(name, variant, mode));
            assertEquals(400, rejection.status());
            assertEquals(Optional.of(Rejection.INVALID_REQUEST), rejection.jsonRpcCode());
            assertTrue(Set.of(LOOK_ALIKE, DUPLICATE).contains(rejection.message()), rejection.message());
        }
    }

    @ParameterizedTest(name = "{0} {1} {2} alone")
    @MethodSource("lookAlikes")
    void aLookAlikeAloneIsRefusedAsALookAlike(String name, String kind, String variant) {
        Rejection rejection = refused(request(name, variant, "alone"));
        assertEquals(400, rejection.status());
        assertEquals(Optional.of(Rejection.INVALID_REQUEST), rejection.jsonRpcCode());
        assertEquals(LOOK_ALIKE, rejection.message());
    }

    @Test
    void theReportedRequestRunsNothing() {
        Rejection rejection = refused("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"wiki_read\",\"arguments\":{\"path\":\"a\"}},"
                + "\"p\u0430rams\":{\"name\":\"wiki_write\",\"arguments\":{\"path\":\"a\",\"content\":\"x\"}}}");
        assertEquals(LOOK_ALIKE, rejection.message());
        assertEquals(Optional.empty(), rejection.id());
    }

    @Test
    void namesThatFoldAlikeAtAProtocolLevelAreDuplicates() {
        assertEquals(DUPLICATE, refused("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x/y\","
                + "\"params\":{\"cursor\":\"a\",\"c\u03c5rsor\":\"b\"}}").message());
        assertEquals(DUPLICATE, refused("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x/y\","
                + "\"params\":{\"request_id\":1,\"requestId\":2}}").message());
        assertEquals(DUPLICATE, refused("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{},\"r\u0435sult\":{}}").message());
    }

    @ParameterizedTest(name = "passes: {0}")
    @ValueSource(strings = {
        "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"c\",\"version\":\"1\"}}}",
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":3,\"reason\":\"x\"}}",
        "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"completion/complete\",\"params\":{\"ref\":{\"type\":\"ref/prompt\","
                + "\"name\":\"p\"},\"argument\":{\"name\":\"a\",\"value\":\"b\"},\"context\":{\"arguments\":{}}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"prompts/get\",\"params\":{\"name\":\"p\",\"arguments\":{\"x\":\"y\"}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":6,\"result\":{\"content\":[]}}",
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"resources/read\",\"params\":{\"uri\":\"wiki://a\"}}",
        // A tool's own argument keys are not protocol members: look-alikes of the seven names pass there.
        "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{\"name\":\"wiki_write\",\"arguments\":"
                + "{\"params\":1,\"p\u0430rams\":2,\"meta\":3,\"_meta\":4,\"name\":5,\"n\u0430me\":6,\"par_ams\":7,"
                + "\"id\":8,\" id\":9,\"ＩＤ\":10}}}",
        // Nor are _meta's contents, nor members of nested objects inside params' values.
        "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":\"wiki_read\",\"arguments\":{},"
                + "\"_meta\":{\"progressToken\":1,\"name\":\"x\",\"n\u0430me\":\"y\",\"params\":{\"p\u0430rams\":1}}}}",
        "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"ping\",\"params\":{\"_meta\":{}}}"
    })
    void legitimateRequestsStillPass(String body) {
        passed(body);
    }

    @Test
    void foldsOfTheProtocolNamesAreDistinctAndStable() {
        assertEquals(ArgumentKeys.fold("params"), ArgumentKeys.fold("p\u0430r\u0430ms"));
        assertEquals(ArgumentKeys.fold("_meta"), ArgumentKeys.fold("meta"));
        assertEquals(ArgumentKeys.fold("id"), ArgumentKeys.fold("ID"));
        assertEquals(ArgumentKeys.fold("arguments"), ArgumentKeys.fold("\u0410RGU\u041c\u0415NTS"));
        assertTrue(ProtocolMembers.isLookAlike("\u039dAME"));
        assertTrue(ProtocolMembers.isLookAlike("\u0399D"));
        assertEquals(ProtocolMembers.NAMES.size(),
                ProtocolMembers.NAMES.stream().map(ArgumentKeys::fold).distinct().count());
    }

    /**
     * ASCII names take a short cut (their characters' readings worked out once, no normalisation): every ASCII
     * character, alone and inside each protocol name, folds and matches as it does on the general path, which a
     * zero-width space (default-ignorable, so removed there) forces.
     */
    @Test
    void asciiNamesFoldAsOnTheGeneralPath() {
        for (int c = 0; c < 0x80; c++) {
            String alone = String.valueOf((char) c);
            assertEquals(ArgumentKeys.skeleton(alone + "\u200b"), ArgumentKeys.skeleton(alone),
                    "U+" + Integer.toHexString(c));
            for (String protocol : ProtocolMembers.NAMES) {
                for (String name : List.of((char) c + protocol, protocol + (char) c,
                        protocol.substring(0, 1) + (char) c + protocol.substring(1))) {
                    String general = name + "\u200b";
                    assertEquals(ArgumentKeys.fold(general), ArgumentKeys.fold(name), name);
                    assertEquals(ProtocolMembers.isLookAlike(general), ProtocolMembers.isLookAlike(name), name);
                }
            }
        }
    }
}
