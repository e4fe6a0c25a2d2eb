package dev.gatehouse.gateway.mcp;

import dev.gatehouse.gateway.gate.Gate;
import dev.gatehouse.gateway.gate.GateReasons;
import dev.gatehouse.gateway.gate.Listing;
import dev.gatehouse.gateway.mcp.guard.JsonRpcMessage;
import dev.gatehouse.gateway.mcp.guard.Rejection;
import java.util.Map;
import java.util.Optional;

/**
 * Decides every {@code tools/list} request of both eras once, after the transport pipeline and before an SDK sees
 * it. A listing the gate could not decide is answered by {@link GateFaultReply} (HTTP 503 with {@code Retry-After}),
 * never as an empty list a client would cache; one refused for the caller's fair share (docs/domain.md §10) is HTTP
 * 429 with {@code Retry-After} (whole seconds, rounded up) and JSON-RPC error -32603 whose {@code data} is
 * {@code {kind: "rate_limited", retryable: true, retryAfterMs}}, the form a tool error has for tools/call (a listing
 * has no tool-error form); a decided listing is kept on the {@link Exchange} and reaches the SDK as part of its
 * {@link SdkContext}, from which the SDK writes the era's result.
 */
final class ToolListRoute {

    private final Gate gate;
    private final HandshakeEndpoint handshake;

    ToolListRoute(Gate gate, HandshakeEndpoint handshake) {
        this.gate = gate;
        this.handshake = handshake;
    }

    /** True for a {@code tools/list} request (with an id). */
    static boolean handles(JsonRpcMessage message) {
        return message.isRequest() && message.method().filter("tools/list"::equals).isPresent();
    }

    /**
     * Decides the listing and keeps it on the exchange for the SDK (publishing the deciding revision's tool
     * definitions to the handshake-era SDK first).
     *
     * @return the rejection to send instead, when nothing was decided
     */
    Optional<Rejection> decide(Exchange exchange, JsonRpcMessage message) {
        Listing listing = gate.list(exchange.caller);
        if (listing instanceof Listing.Unavailable unavailable) {
            return Optional.of(GateFaultReply.of(unavailable.fault(), message.id()));
        }
        if (listing instanceof Listing.RateLimited limited) {
            return Optional.of(new Rejection(429, Optional.of(Rejection.INTERNAL_ERROR),
                    "over this agent's share of the gateway; retry after retryAfterMs", message.id(),
                    Map.of("Retry-After", String.valueOf((limited.retryAfterMs() + 999) / 1000)))
                    .withData(Map.of("kind", GateReasons.RATE_LIMITED, "retryable", true,
                            "retryAfterMs", limited.retryAfterMs())));
        }
        Listing.Listed listed = (Listing.Listed) listing;
        if (exchange.era != Era.MODERN) {
            handshake.publish(listed);
        }
        exchange.listed = Optional.of(listed.tools());
        return Optional.empty();
    }
}
