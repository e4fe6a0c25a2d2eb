package dev.gatehouse.gateway.mcp;

import dev.gatehouse.gateway.mcp.guard.Rejection;
import dev.gatehouse.gateway.store.StoreUnavailableException;
import java.util.Map;
import java.util.Optional;

/**
 * What one caller may make the handshake SDK keep in memory: the SDK holds every session it opened, with what its
 * initialize sent, until the session ends or idles out (a new user's trial grew the gateway's heap by 300 MB with
 * 300 initialize requests carrying large capabilities). So an initialize is at most {@value #MAX_INITIALIZE_BYTES}
 * bytes (413) and a caller holds at most {@code gatehouse.mcp.max-sessions-per-caller} sessions on a replica at once
 * (429 with {@code Retry-After}: the caller ends one with DELETE, or one idles out). A resource bound of the
 * transport, like the body size: nothing is decided.
 */
final class SessionLimits {

    /** An initialize carries the client's name, version and capabilities: this is ample, and 1/16 of the body bound. */
    static final int MAX_INITIALIZE_BYTES = 64 * 1024;

    private final HandshakeSessions sessions;
    private final int maxPerCaller;
    private final Rejection tooMany;

    SessionLimits(HandshakeSessions sessions, McpProperties properties) {
        this.sessions = sessions;
        this.maxPerCaller = properties.getMaxSessionsPerCaller();
        this.tooMany = new Rejection(429, Optional.of(Rejection.INVALID_REQUEST), "too many open sessions: this"
                + " caller holds " + maxPerCaller + "; end one (DELETE /mcp with its Mcp-Session-Id) or wait until one"
                + " has been idle for " + properties.getSessionIdleTimeout().toMinutes() + " min", Optional.empty(),
                Map.of("Retry-After", Long.toString(Math.max(1, properties.getSessionIdleTimeout().toSeconds()))));
    }

    /**
     * Whether an initialize of {@code bodyBytes} by the caller with {@code bindingKey} may open a session; empty when
     * it may. When the store does not answer, 503 {@link Rejection#unavailable()}: nothing was opened.
     */
    Optional<Rejection> admit(int bodyBytes, String bindingKey) {
        if (bodyBytes > MAX_INITIALIZE_BYTES) {
            return Optional.of(Rejection.jsonRpc(413, Rejection.INVALID_REQUEST, "an initialize request is at most "
                    + MAX_INITIALIZE_BYTES + " bytes"));
        }
        try {
            return sessions.held(bindingKey) >= maxPerCaller ? Optional.of(tooMany) : Optional.empty();
        } catch (StoreUnavailableException e) {
            return Optional.of(Rejection.unavailable());
        }
    }
}
