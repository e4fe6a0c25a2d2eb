package dev.gatehouse.gateway.mcp;

import dev.gatehouse.gateway.mcp.guard.OriginGuard;
import dev.gatehouse.gateway.mcp.guard.Rejection;
import java.util.Collections;
import java.util.Optional;

/** {@code origin}: the Origin and Host allow-lists (403), before anything is read (DNS-rebinding protection). */
final class OriginStep implements TransportStep {

    private final OriginGuard origins;

    OriginStep(OriginGuard origins) {
        this.origins = origins;
    }

    @Override
    public String name() {
        return "origin";
    }

    @Override
    public Optional<Rejection> apply(Exchange exchange) {
        return origins.check(Collections.list(exchange.request.getHeaders("Origin")),
                Optional.ofNullable(exchange.request.getHeader("Host")));
    }
}
