package dev.gatehouse.gateway.mcp.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Public-failures rows 8, 10, 14 and 15 at the JSON-RPC layer. */
class JsonRpcGuardTest {

    private final JsonRpcGuard guard = new JsonRpcGuard(64);

    private Rejection refused(String body) {
        JsonRpcGuard.Result result = guard.check(body.getBytes(StandardCharsets.UTF_8));
        return assertInstanceOf(JsonRpcGuard.Result.Refused.class, result).rejection();
    }

    private JsonRpcMessage passed(String body) {
        JsonRpcGuard.Result result = guard.check(body.getBytes(StandardCharsets.UTF_8));
        return assertInstanceOf(JsonRpcGuard.Result.Passed.class, result).message();
    }

    @ParameterizedTest(name = "batch {0}")
    @ValueSource(strings = {
        "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"wiki_write\",\"arguments\":{\"path\":\"page.md\",\"content\":\"x\"}}}]",
        "[]",
        "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"wiki_read\"}}]"
    })
    void batchesAreInvalidRequestsWithNullId(String body) {
        Rejection rejection = refused(body);
        assertEquals(400, rejection.status());
        assertEquals(Optional.of(Rejection.INVALID_REQUEST), rejection.jsonRpcCode());
        assertEquals(Optional.empty(), rejection.id());
    }

    @ParameterizedTest(name = "id {0}")
    @ValueSource(strings = {"null", "1.5", "true", "{}", "[1]", "1e3"})
    void idsOtherThanStringsOrIntegersAreInvalid(String id) {
        Rejection rejection = refused("{\"jsonrpc\":\"2.0\",\"id\":" + id
                + ",\"method\":\"tools/call\",\"params\":{\"name\":\"wiki_write\",\"arguments\":{}}}");
        assertEquals(400, rejection.status());
        assertEquals(Optional.of(Rejection.INVALID_REQUEST), rejection.jsonRpcCode());
        assertEquals(Optional.empty(), rejection.id());
    }

    @Test
    void integerIdsPassUpTo64BitsAndLongerOnesAreToldSo() {
        for (String id : List.of("9223372036854775807", "-9223372036854775808")) {
            assertEquals(Optional.of(Long.parseLong(id)), passed("{\"jsonrpc\":\"2.0\",\"id\":" + id
                    + ",\"method\":\"ping\"}").id());
        }
        for (String id : List.of("9223372036854775808", "-9223372036854775809", "12345678901234567890123")) {
            Rejection rejection = refused("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}");
            assertEquals(Optional.of(Rejection.INVALID_REQUEST), rejection.jsonRpcCode(), id);
            assertEquals("an integer id must be from -2^63 to 2^63-1 (a longer one can be sent as a string)",
                    rejection.message(), id);
        }
    }

    @Test
    void aToolCallWithoutIdIsNotAcceptedAsANotification() {
        Rejection rejection = refused("{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"name\":\"wiki_write\"}}");
        assertEquals(Optional.of(Rejection.INVALID_REQUEST), rejection.jsonRpcCode());
    }

    @Test
    void notificationsAndStringOrIntegerIdsPass() {
        assertEquals(Optional.empty(), passed("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").id());
        assertEquals(Optional.of("a"), passed("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"ping\"}").id());
        assertEquals(Optional.of(7L), passed("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}").id());
    }

    @ParameterizedTest(name = "duplicate {0}")
    @ValueSource(strings = {
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"method\":\"tools/call\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"wiki_read\",\"Name\":\"wiki_write\"}}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"wiki_read\",\"arguments\":{\"path\":\"a\",\"PATH\":\"../a2\"}}}"
    })
    void duplicateAndCaseVariantMemberNamesAreInvalid(String body) {
        Rejection rejection = refused(body);
        assertEquals(400, rejection.status());
        assertEquals(Optional.of(Rejection.INVALID_REQUEST), rejection.jsonRpcCode());
    }

    @Test
    void deepNestingIsRefusedWithoutParsingIt() {
        String deep = "[".repeat(10_000) + "]".repeat(10_000);
        Rejection rejection = refused("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"wiki_read\",\"arguments\":{\"path\":"
                + deep + "}}}");
        assertEquals(400, rejection.status());
        assertEquals(Optional.of(Rejection.INVALID_REQUEST), rejection.jsonRpcCode());
    }

    /** Each of Jackson's read limits is named as the one broken, never reported as nesting (a fresh-user finding). */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"name", "number", "nesting"})
    void everyReadLimitIsNamedAsTheOneBroken(String limit) {
        String arguments = switch (limit) {
            case "name" -> "{\"path\":\"page.md\",\"" + "x".repeat(50_001) + "\":1}";
            case "number" -> "{\"path\":\"page.md\",\"n\":" + "9".repeat(1_001) + "}";
            default -> "{\"path\":" + "[".repeat(100) + "]".repeat(100) + "}";
        };
        Rejection rejection = refused("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"wiki_read\",\"arguments\":" + arguments + "}}");
        assertEquals(400, rejection.status());
        assertEquals(Optional.of(Rejection.INVALID_REQUEST), rejection.jsonRpcCode());
        assertEquals(switch (limit) {
            case "name" -> "a member name in the request is too long";
            case "number" -> "a number in the request has too many digits";
            default -> "request nested too deeply";
        }, rejection.message());
    }

    /**
     * The default bound README states: a request nested 64 levels deep (objects and arrays, the request itself the
     * first) is read, one level more is 400, -32600, before anything is decided.
     */
    @Test
    void theDefaultNestingBoundIsSixtyFourLevels() {
        JsonRpcGuard defaults = new JsonRpcGuard(new dev.gatehouse.gateway.mcp.McpProperties().getMaxJsonDepth());
        for (int levels : new int[] {64, 65, 66, 200}) {
            int arrays = levels - 3; // the request, its params and the arguments are three levels
            String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":"
                    + "\"wiki_read\",\"arguments\":{\"path\":" + "[".repeat(arrays) + "]".repeat(arrays) + "}}}";
            JsonRpcGuard.Result result = defaults.check(body.getBytes(StandardCharsets.UTF_8));
            if (levels == 64) {
                assertInstanceOf(JsonRpcGuard.Result.Passed.class, result, "64 levels");
            } else {
                Rejection rejection = assertInstanceOf(JsonRpcGuard.Result.Refused.class, result).rejection();
                assertEquals(400, rejection.status(), levels + " levels");
                assertEquals(Optional.of(Rejection.INVALID_REQUEST), rejection.jsonRpcCode(), levels + " levels");
                assertEquals("request nested too deeply", rejection.message(), levels + " levels");
            }
        }
    }

    /** The names of the limits Jackson can report, including one it may add later. */
    @Test
    void readLimitMessagesAreMappedByKind() {
        assertEquals("a string in the request is too long", JsonRpcGuard.exceeded(
                new StreamConstraintsException(
                        "String value length (20000001) exceeds the maximum allowed (20000000)")));
        assertEquals("the request exceeds a JSON size limit", JsonRpcGuard.exceeded(
                new StreamConstraintsException("Token count (1) exceeds (0)")));
    }

    @ParameterizedTest(name = "parse error {0}")
    @ValueSource(strings = {"{", "not json", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"} {}", ""})
    void invalidJsonIsAParseError(String body) {
        Rejection rejection = refused(body);
        assertEquals(400, rejection.status());
        assertEquals(Optional.of(Rejection.PARSE_ERROR), rejection.jsonRpcCode());
    }

    @Test
    void wrongVersionAndNonObjectParamsAreInvalid() {
        assertEquals(Optional.of(Rejection.INVALID_REQUEST),
                refused("{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}").jsonRpcCode());
        Rejection params = refused("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\",\"params\":[1]}");
        assertEquals(Optional.of(Rejection.INVALID_REQUEST), params.jsonRpcCode());
        assertEquals(Optional.of(3L), params.id());
    }

    /**
     * A request refused for its shape is answered under its own id whenever that id is readable, a string or an
     * integer (a new user's trial: a body without {@code jsonrpc}, or with {@code "1.0"}, was answered with
     * {@code "id": null}, so the client could not tell which request failed); every fault of the message's own
     * members, with each kind of id.
     */
    @Test
    void aRequestRefusedForItsShapeIsAnsweredUnderItsOwnId() {
        List<String> faults = List.of("", "\"jsonrpc\":\"1.0\",", "\"jsonrpc\":2.0,", "\"jsonrpc\":null,",
                "\"jsonrpc\":\" 2.0\",");
        Map<String, Object> ids = Map.of("7", 7L, "\"a\"", "a", "-9223372036854775808", Long.MIN_VALUE, "\"\"", "");
        for (Map.Entry<String, Object> id : ids.entrySet()) {
            for (String version : faults) {
                Rejection rejection = refused("{" + version + "\"id\":" + id.getKey() + ",\"method\":\"ping\"}");
                assertEquals(Optional.of(Rejection.INVALID_REQUEST), rejection.jsonRpcCode(), version);
                assertEquals("jsonrpc must be \"2.0\"", rejection.message(), version);
                assertEquals(Optional.of(id.getValue()), rejection.id(), version + id.getKey());
            }
            for (String body : List.of("\"method\":5", "\"method\":\"ping\",\"params\":[1]",
                    "\"method\":\"ping\",\"params\":\"x\"", "\"method\":null", "\"params\":{\"name\":\"x\"}",
                    "\"resul\":{}")) {
                Rejection rejection = refused("{\"jsonrpc\":\"2.0\",\"id\":" + id.getKey() + "," + body + "}");
                assertEquals(Optional.of(Rejection.INVALID_REQUEST), rejection.jsonRpcCode(), body);
                assertEquals(Optional.of(id.getValue()), rejection.id(), body + id.getKey());
            }
        }
        // An id that is not a string or an integer cannot be answered under: null, as before.
        assertEquals(Optional.empty(), refused("{\"jsonrpc\":\"1.0\",\"id\":1.5,\"method\":\"ping\"}").id());
    }

    /** The shape rules are checked while the tree is built (one read): every place a reader can reach is checked. */
    @ParameterizedTest(name = "deep duplicate {0}")
    @ValueSource(strings = {
        "{\"path\":\"a\",\"list\":[{\"k\":1,\"K\":2}]}",
        "{\"path\":\"a\",\"list\":[[],[{\"x\":{\"y\":{\"k\":1,\"k\":2}}}]]}",
        "{\"path\":\"a\",\"o\":{\"Ä\":1,\"ä\":2}}",
        "{\"path\":\"a\",\"last\":{\"z\":[1,2,{\"q\":true,\"Q\":false}]}}"
    })
    void duplicatesAtAnyDepthOfTheArgumentsAreInvalid(String arguments) {
        Rejection rejection = refused("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"wiki_read\",\"arguments\":" + arguments + "}}");
        assertEquals(Optional.of(Rejection.INVALID_REQUEST), rejection.jsonRpcCode());
        assertEquals("duplicate member name", rejection.message());
    }

    @ParameterizedTest(name = "trailing {0}")
    @ValueSource(strings = {" {}", " {\"a\":1,\"A\":2}", " 1", "]", " \"x\""})
    void contentAfterTheMessageIsAParseError(String trailing) {
        Rejection rejection = refused("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}" + trailing);
        assertEquals(Optional.of(Rejection.PARSE_ERROR), rejection.jsonRpcCode());
    }

    @Test
    void numbersAndStringsOfTheArgumentsArriveAsWritten() {
        JsonRpcMessage message = passed("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"project_work_submit\",\"arguments\":{\"big\":1e400,\"exact\":0.10,"
                + "\"long\":123456789012345678901234567890,\"text\":\"\\u00e9\\n\",\"list\":[1,null,true]}}}");
        var arguments = message.params().orElseThrow().get("arguments");
        assertEquals("1E+400", arguments.get("big").decimalValue().toString());
        assertEquals("0.10", arguments.get("exact").decimalValue().toPlainString());
        assertEquals("123456789012345678901234567890", arguments.get("long").bigIntegerValue().toString());
        assertEquals("\u00e9\n", arguments.get("text").textValue());
        assertEquals("[1,null,true]", arguments.get("list").toString());
    }

    /**
     * A string escape that leaves a surrogate unpaired (a new user's trial found {@code "A\\ud800B"} stored as
     * {@code A?B} and a path logged as {@code ?.md}), in a value or a member name, at any depth: refused; a pair is
     * one character and passes.
     */
    @ParameterizedTest(name = "unpaired {0}")
    @ValueSource(strings = {"\\ud800", "\\udc00", "a\\ud800b", "\\udc00\\ud800", "\\ud800\\ud800", "x\\udbff",
        "\\udfff\\ud83d\\ude00"})
    void unpairedSurrogateEscapesAreRefusedInValuesAndNames(String escape) {
        for (String body : List.of(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"wiki_write\","
                        + "\"arguments\":{\"path\":\"p.md\",\"content\":\"" + escape + "\"}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"wiki_read\","
                        + "\"arguments\":{\"" + escape + "\":[{\"a\":\"b\"}]}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":\"" + escape + "\",\"method\":\"ping\"}")) {
            Rejection rejection = refused(body);
            assertTrue(rejection.message().contains("unpaired surrogate"), body + ": " + rejection.message());
        }
        passed("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"wiki_write\","
                + "\"arguments\":{\"path\":\"\\ud83d\\ude00.md\",\"content\":\"\\ud83d\\ude00\"}}}");
    }

    /**
     * A NUL byte is never JSON text in UTF-8 (a new user's trial found a UTF-16 body read as UTF-16, Jackson guessing
     * the encoding from NULs among the first bytes): the message in UTF-16 and UTF-32 of either order, and a raw NUL
     * inside a string or between tokens, are -32700.
     */
    @Test
    void aBodyWithANulByteIsAParseError() {
        String message = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
        List<byte[]> bodies = new java.util.ArrayList<>();
        for (String charset : List.of("UTF-16LE", "UTF-16BE", "UTF-32LE", "UTF-32BE")) {
            bodies.add(message.getBytes(java.nio.charset.Charset.forName(charset)));
        }
        bodies.add("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"pi\u0000ng\"}".getBytes(StandardCharsets.UTF_8));
        bodies.add("{\"jsonrpc\":\"2.0\",\u0000\"id\":1,\"method\":\"ping\"}".getBytes(StandardCharsets.UTF_8));
        for (byte[] body : bodies) {
            JsonRpcGuard.Result result = new JsonRpcGuard(64).check(body);
            Rejection rejection = assertInstanceOf(JsonRpcGuard.Result.Refused.class, result).rejection();
            assertEquals(Optional.of(Rejection.PARSE_ERROR), rejection.jsonRpcCode(), new String(body,
                    StandardCharsets.ISO_8859_1));
        }
        passed("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\","
                + "\"arguments\":{\"t\":\"a\\u0000b\"}}}");
    }

    /**
     * A number whose exponent Java cannot hold (a new user's trial found {@code 1e-2147483648} answered 500 with a
     * stack in the log), or whose plain form has more than 1,000 digits before or after its point: 400 -32600,
     * wherever it is; up to the bound it passes exactly.
     */
    @Test
    void numbersBeyondWhatIsReadExactlyAreRefusedWhereverTheyAre() {
        List<String> refusedNumbers = List.of("1e-2147483648", "1e2147483648", "0.1e-2147483647", "-1e2147483648",
                "1e2147483647", "1.5e2147483647", "-1e2147483647", "1e-2147483647", "1e1000", "1e-1001", "-9e1000",
                "0e-1001", "0e2147483647", "1E+99999999999", "1e-99999999999");
        for (String number : refusedNumbers) {
            for (String body : List.of("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"x\":" + number + "}",
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\","
                            + "\"arguments\":{\"a\":[{\"b\":" + number + "}]}}}")) {
                Rejection rejection = refused(body);
                assertEquals(400, rejection.status(), body);
                assertEquals(Optional.of(Rejection.INVALID_REQUEST), rejection.jsonRpcCode(), body);
                assertTrue(rejection.message().contains("more than 1000 digits"), body + ": " + rejection.message());
            }
        }
        for (String number : List.of("1e999", "-1e999", "1e-1000", "1e400", "0e999", "0.5e-999", "1" + "0".repeat(999),
                "123.456e-5", "-0.0")) {
            passed("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\","
                    + "\"arguments\":{\"n\":" + number + "}}}");
        }
    }

    /**
     * Ill-formed UTF-8 (a new user's trial found overlong {@code C0 AF} read as {@code /}), in a string value and in a
     * member name: -32700 before any layer reads a character; well-formed multi-byte characters pass.
     */
    @Test
    void bytesThatAreNotUtf8AreParseErrorsWhereverTheyAre() {
        String[] illFormed = {"C0AF", "C0AE", "C1BF", "E080AF", "F08080AF", "EDA080", "EDBFBF", "80", "BF", "FF", "FE",
            "F5808080", "F4908080", "E282", "C3"};
        for (String hex : illFormed) {
            for (String[] around : new String[][] {{"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
                    + "\"params\":{\"name\":\"wiki_read\",\"arguments\":{\"path\":\"a", "b.md\"}}}"},
                {"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"wiki_read\","
                    + "\"arguments\":{\"agent", "Id\":\"x\"}}}"}}) {
                Rejection rejection = assertInstanceOf(JsonRpcGuard.Result.Refused.class,
                        guard.check(bytes(around[0], hex, around[1])), hex).rejection();
                assertEquals(400, rejection.status(), hex);
                assertEquals(Optional.of(Rejection.PARSE_ERROR), rejection.jsonRpcCode(), hex);
            }
        }
        for (String hex : new String[] {"C3A9", "E282AC", "F09F9880", "EFBFBF", "F48FBFBF"}) {
            assertInstanceOf(JsonRpcGuard.Result.Passed.class, guard.check(bytes("{\"jsonrpc\":\"2.0\",\"id\":1,"
                    + "\"method\":\"tools/call\",\"params\":{\"name\":\"wiki_read\",\"arguments\":{\"path\":\"a",
                    hex, "b.md\"}}}")), hex);
        }
    }

    /**
     * The same bytes after a long run of text, at every offset around where the check's decoding window (1,024
     * characters) fills up, so a sequence split between two windows is judged as a whole: ill-formed ones refused,
     * well-formed ones (a surrogate pair among them) passed.
     */
    @Test
    void bytesAreJudgedWholeWhereverTheDecodingWindowEnds() {
        String head = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"wiki_read\","
                + "\"arguments\":{\"path\":\"";
        for (int pad = 1024 - head.length() - 8; pad <= 2048 - head.length() + 8; pad++) {
            String before = head + "\u00e9".repeat(1) + "a".repeat(pad - 1);
            for (String hex : new String[] {"C0AF", "EDA080", "F4908080", "E282", "80"}) {
                assertInstanceOf(JsonRpcGuard.Result.Refused.class, guard.check(bytes(before, hex, "b.md\"}}}")),
                        hex + " after " + pad);
            }
            for (String hex : new String[] {"C3A9", "E282AC", "F09F9880"}) {
                assertInstanceOf(JsonRpcGuard.Result.Passed.class, guard.check(bytes(before, hex, "b.md\"}}}")),
                        hex + " after " + pad);
            }
        }
    }

    private static byte[] bytes(String before, String hex, String after) {
        byte[] head = before.getBytes(StandardCharsets.UTF_8);
        byte[] tail = after.getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[head.length + hex.length() / 2 + tail.length];
        System.arraycopy(head, 0, all, 0, head.length);
        for (int i = 0; i < hex.length() / 2; i++) {
            all[head.length + i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        System.arraycopy(tail, 0, all, head.length + hex.length() / 2, tail.length);
        return all;
    }

    /**
     * A caller's member names are not interned into the JVM's string table: a body of 80,000 distinct names spent
     * half its parse there (and would leave every name behind). A name the caller made up comes back as its own
     * string, which an interned one would not be.
     */
    @Test
    void aCallersMemberNamesAreNotInterned() {
        String made = "k-" + java.util.UUID.randomUUID();
        JsonRpcMessage message = passed("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"wiki_read\",\"arguments\":{\"" + made + "\":1}}}");
        String read = message.params().orElseThrow().get("arguments").fieldNames().next();
        assertEquals(made, read);
        assertNotSame(read, new String(read).intern(), "the name read is not the interned one");
    }
}
