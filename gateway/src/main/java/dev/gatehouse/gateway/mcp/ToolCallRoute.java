package dev.gatehouse.gateway.mcp;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatehouse.gateway.gate.Gate;
import dev.gatehouse.gateway.gate.GateResult;
import dev.gatehouse.gateway.mcp.guard.JsonRpcMessage;
import dev.gatehouse.gateway.mcp.guard.Rejection;
import io.modelcontextprotocol.json.McpJsonMapper;
import java.io.IOException;
import java.util.Map;

/**
 * The one entry from the transport into {@link Gate#call}, for both eras: every {@code tools/call} request is
 * answered here, after the transport pipeline, and never by an SDK. So a served name, an unknown one and a hidden
 * one get their decision the same way, and arguments that are not an object reach the policy as a fact (a
 * {@code schema} denial) instead of an SDK error. A missing or {@code null} {@code arguments} is {@code {}}. A call
 * the gate could not decide (store or PDP unavailable, no bundle, log not writable: a {@code GateFault}) is answered
 * by {@link GateFaultReply}: HTTP 503 with {@code Retry-After}, a retryable fault, not a denial.
 */
final class ToolCallRoute {

    /** Keeps the guard's exact numbers: a fraction stays a BigDecimal in the arguments the gate and handler get. */
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private final Gate gate;
    private final McpJsonMapper json;

    ToolCallRoute(Gate gate, McpJsonMapper json) {
        this.gate = gate;
        this.json = json;
    }

    /**
     * The arguments as plain Java values ({@code Map}, {@code List}, {@code String}, {@code Boolean}, {@code null},
     * integers as {@code Integer}/{@code Long}/{@code BigInteger}, fractions as {@code BigDecimal}, exactly as
     * written); a missing or {@code null} member is an empty map.
     */
    static Object arguments(JsonNode arguments) {
        return arguments == null || arguments.isNull() ? Map.of() : JSON.convertValue(arguments, Object.class);
    }

    /** True for a {@code tools/call} request (with an id), which {@link #answer} must handle. */
    static boolean handles(JsonRpcMessage message) {
        return message.isRequest() && message.method().filter("tools/call"::equals).isPresent();
    }

    /** Decides the call through the gate and writes the era's tool result (or -32602 for a bad {@code name}). */
    void answer(Exchange exchange, JsonRpcMessage message) throws IOException {
        JsonNode params = message.params().map(JsonNode.class::cast).orElse(JSON.createObjectNode());
        JsonNode name = params.get("name");
        if (name == null || !name.isTextual()) {
            JsonRpcReplies.reject(exchange.response, Rejection.jsonRpc(200, Rejection.INVALID_PARAMS,
                    "params.name must be a string").withId(message.id()));
            return;
        }
        GateResult result = gate.call(exchange.caller, name.textValue(), arguments(params.get("arguments")));
        if (result instanceof GateResult.Unavailable unavailable) {
            JsonRpcReplies.reject(exchange.response, GateFaultReply.of(unavailable.fault(), message.id()));
            return;
        }
        ToolReply reply = ToolReply.of((GateResult.Decided) result);
        Object wire = exchange.era == Era.MODERN ? ModernEndpoint.result(reply) : HandshakeEndpoint.result(reply);
        JsonRpcReplies.result(exchange.response, message.id(), json.writeValueAsBytes(wire));
    }
}
