package dev.gatehouse.gateway.mcp;

import dev.gatehouse.gateway.mcp.guard.Rejection;
import dev.gatehouse.gateway.store.StoreUnavailableException;
import java.util.Optional;

/**
 * {@code session}: in the handshake era every request but {@code initialize} carries an {@code Mcp-Session-Id}
 * (400 without one) that this caller initialized (404 for anyone else, as the MCP transport answers an unknown
 * session, and for a session this replica's SDK does not hold); 503 {@code unavailable} when the binding store did
 * not answer. 2026-07-28 requests have no session and pass.
 */
final class SessionOwnershipStep implements TransportStep {

    private final HandshakeSessions sessions;

    SessionOwnershipStep(HandshakeSessions sessions) {
        this.sessions = sessions;
    }

    @Override
    public String name() {
        return "session";
    }

    @Override
    public Optional<Rejection> apply(Exchange exchange) {
        if (exchange.era != Era.HANDSHAKE || exchange.method().filter("initialize"::equals).isPresent()) {
            return Optional.empty();
        }
        String sessionId = exchange.request.getHeader(McpHeaders.SESSION_ID);
        if (sessionId == null) {
            return Optional.of(Rejection.jsonRpc(400, Rejection.INVALID_REQUEST,
                    "Mcp-Session-Id required; send initialize first").withId(exchange.id()));
        }
        boolean owned;
        try {
            owned = sessions.ownedBy(sessionId, exchange.identity.bindingKey());
        } catch (StoreUnavailableException e) {
            return Optional.of(Rejection.unavailable().withId(exchange.id()));
        }
        if (!owned) {
            return Optional.of(Rejection.jsonRpc(404, Rejection.INVALID_REQUEST, "session not found")
                    .withId(exchange.id()));
        }
        return Optional.empty();
    }
}
