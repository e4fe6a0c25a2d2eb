package dev.gatehouse.gateway.mcp;

import io.micronaut.scheduling.annotation.Scheduled;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Binds each handshake-era {@code Mcp-Session-Id} to the caller that initialized it. The SDK issues the id; the
 * front servlet records the binding from the initialize response and checks it on every later request, so a session
 * id is useless to anyone but its owner (the SDK itself binds sessions to nobody). A binding unused for
 * {@code gatehouse.mcp.session-idle-timeout} is forgotten; its client then gets 404 and initializes again, as the
 * Streamable HTTP transport specifies.
 */
@Singleton
public class HandshakeSessions {

    private record Binding(String owner, Instant lastUsed) {
    }

    private final Map<String, Binding> bySession = new ConcurrentHashMap<>();
    private final Duration idleTimeout;
    private final Clock clock;

    public HandshakeSessions(McpProperties properties) {
        this(properties.getSessionIdleTimeout(), Clock.systemUTC());
    }

    HandshakeSessions(Duration idleTimeout, Clock clock) {
        this.idleTimeout = idleTimeout;
        this.clock = clock;
    }

    /** Records that {@code sessionId} was issued to the principal with {@code bindingKey}. */
    public void bind(String sessionId, String bindingKey) {
        bySession.put(sessionId, new Binding(bindingKey, clock.instant()));
    }

    /** True when {@code sessionId} is bound to {@code bindingKey}; marks the binding as used. */
    public boolean ownedBy(String sessionId, String bindingKey) {
        Binding binding = bySession.computeIfPresent(sessionId,
                (id, current) -> current.owner().equals(bindingKey) ? new Binding(bindingKey, clock.instant())
                        : current);
        return binding != null && binding.owner().equals(bindingKey);
    }

    /** Forgets a terminated session. */
    public void unbind(String sessionId) {
        bySession.remove(sessionId);
    }

    /** Forgets bindings idle longer than the timeout, so abandoned sessions do not accumulate. */
    @Scheduled(fixedDelay = "1m")
    void forgetIdle() {
        Instant oldest = clock.instant().minus(idleTimeout);
        bySession.values().removeIf(binding -> binding.lastUsed().isBefore(oldest));
    }
}
