package dev.gatehouse.gateway.mcp.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import java.nio.charset.StandardCharsets;
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
}
