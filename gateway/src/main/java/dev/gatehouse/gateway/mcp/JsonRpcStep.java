package dev.gatehouse.gateway.mcp;

import dev.gatehouse.gateway.mcp.guard.JsonRpcGuard;
import dev.gatehouse.gateway.mcp.guard.Rejection;
import java.util.Optional;

/**
 * {@code json-rpc}: the body of a {@code POST} is one JSON-RPC message: no batch, no duplicate or case-variant
 * member names, valid id types, bounded depth (400 with -32600 or -32700).
 */
final class JsonRpcStep implements TransportStep {

    private final JsonRpcGuard guard;

    JsonRpcStep(JsonRpcGuard guard) {
        this.guard = guard;
    }

    @Override
    public String name() {
        return "json-rpc";
    }

    @Override
    public Optional<Rejection> apply(Exchange exchange) {
        if (!exchange.post()) {
            return Optional.empty();
        }
        JsonRpcGuard.Result checked = guard.check(exchange.body);
        if (checked instanceof JsonRpcGuard.Result.Refused refused) {
            return Optional.of(refused.rejection());
        }
        exchange.message = Optional.of(((JsonRpcGuard.Result.Passed) checked).message());
        return Optional.empty();
    }
}
