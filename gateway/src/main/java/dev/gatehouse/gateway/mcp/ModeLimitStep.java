package dev.gatehouse.gateway.mcp;

import dev.gatehouse.gateway.context.AuthenticatedCaller;
import dev.gatehouse.gateway.mcp.guard.Rejection;
import dev.gatehouse.facts.Modes;
import java.util.Collections;
import java.util.Optional;

/**
 * {@code mode-limit}: the {@code T3-Mode-Limit} header's spelling (400 {@code invalid_mode_limit}). The value goes to
 * the gate for every caller; whom it narrows is the policy's decision (docs/domain.md §1).
 */
final class ModeLimitStep implements TransportStep {

    @Override
    public String name() {
        return "mode-limit";
    }

    @Override
    public Optional<Rejection> apply(Exchange exchange) {
        Optional<Modes> limit;
        try {
            limit = ModeLimitHeader.parse(Collections.list(exchange.request.getHeaders(ModeLimitHeader.NAME)));
        } catch (ModeLimitHeader.Malformed e) {
            return Optional.of(Rejection.jsonRpc(400, Rejection.INVALID_REQUEST, "invalid_mode_limit"));
        }
        exchange.caller = new AuthenticatedCaller(exchange.identity, limit);
        return Optional.empty();
    }
}
