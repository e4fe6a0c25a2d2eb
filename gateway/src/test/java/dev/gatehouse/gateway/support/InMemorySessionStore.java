package dev.gatehouse.gateway.support;

import dev.gatehouse.gateway.auth.AgentSession;
import dev.gatehouse.gateway.auth.SessionStore;
import dev.gatehouse.gateway.auth.SessionTokens;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** A {@link SessionStore} in a map, for unit tests that build their objects by hand (no expiry). */
public final class InMemorySessionStore implements SessionStore {

    private final Map<String, AgentSession> byHash = new ConcurrentHashMap<>();

    @Override
    public void put(String token, AgentSession session) {
        byHash.put(SessionTokens.hash(token), session);
    }

    @Override
    public Optional<AgentSession> findByToken(String token) {
        return Optional.ofNullable(byHash.get(SessionTokens.hash(token)));
    }

    @Override
    public boolean revoke(String sessionId) {
        return byHash.values().removeIf(session -> session.sessionId().equals(sessionId));
    }

    @Override
    public List<Listed> current() {
        return byHash.values().stream().map(s -> new Listed(s, Instant.EPOCH, Instant.MAX)).toList();
    }
}
