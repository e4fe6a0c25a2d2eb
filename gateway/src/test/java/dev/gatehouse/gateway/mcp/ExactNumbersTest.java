package dev.gatehouse.gateway.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.gateway.mcp.guard.JsonRpcGuard;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Numbers in tool arguments reach the gate and the handlers as written, through the JSON-RPC guard and the
 * route's conversion: business data is forwarded, not rounded (found as 1e400 stored as "Infinity" and fractions
 * rounded to double precision by a fresh-user run).
 */
class ExactNumbersTest {

    /** Out of double range, beyond its precision, trailing zeros, huge integers: each kept exactly. */
    private static final List<String> LITERALS = List.of("1e400", "-1e400", "1e-400", "12345678901234567890.5",
            "0.1000000000000000055511151231257827", "1.50", "2.0", "0.000", "123456789012345678901234567890", "7",
            "-9223372036854775809", "3.141592653589793238462643383279");

    @Test
    void everyNumberReachesTheGateAsWritten() {
        StringBuilder members = new StringBuilder();
        for (int i = 0; i < LITERALS.size(); i++) {
            members.append(i == 0 ? "" : ",").append("\"n").append(i).append("\":").append(LITERALS.get(i));
        }
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"project_work_submit\",\"arguments\":{\"result\":{" + members + "},\"list\":[" + LITERALS.get(0)
                + "," + LITERALS.get(4) + "]}}}";
        JsonRpcGuard.Result.Passed passed = assertInstanceOf(JsonRpcGuard.Result.Passed.class,
                new JsonRpcGuard(64).check(body.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        JsonNode params = passed.message().tree().get("params");
        Map<?, ?> arguments = (Map<?, ?>) ToolCallRoute.arguments(params.get("arguments"));
        Map<?, ?> result = (Map<?, ?>) arguments.get("result");
        for (int i = 0; i < LITERALS.size(); i++) {
            assertExact(LITERALS.get(i), result.get("n" + i));
        }
        List<?> list = (List<?>) arguments.get("list");
        assertExact(LITERALS.get(0), list.get(0));
        assertExact(LITERALS.get(4), list.get(1));
    }

    private static void assertExact(String literal, Object value) {
        BigDecimal expected = new BigDecimal(literal);
        if (literal.contains(".") || literal.contains("e")) {
            assertEquals(expected, assertInstanceOf(BigDecimal.class, value, literal), literal + " (value and scale)");
        } else {
            assertEquals(expected.toBigIntegerExact(), new BigInteger(value.toString()), literal);
        }
    }
}
