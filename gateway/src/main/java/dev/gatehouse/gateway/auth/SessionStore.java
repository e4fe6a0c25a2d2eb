package dev.gatehouse.gateway.auth;

import jakarta.inject.Singleton;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Thread callers' sessions, keyed by the SHA-256 of their bearer token (the token itself is never stored).
 * In memory: a gateway restart ends every session and the host re-attaches them.
 */
@Singleton
public class SessionStore {

    private final Map<String, AgentSession> byTokenHash = new ConcurrentHashMap<>();
    private final Map<String, String> tokenHashById = new ConcurrentHashMap<>();

    /** Stores {@code session} under the hash of {@code token}. */
    public void put(String token, AgentSession session) {
        String hash = SessionTokens.hash(token);
        byTokenHash.put(hash, session);
        tokenHashById.put(session.sessionId(), hash);
    }

    /** The session a presented token belongs to, if it is current. */
    public Optional<AgentSession> findByToken(String token) {
        return Optional.ofNullable(byTokenHash.get(SessionTokens.hash(token)));
    }

    /**
     * Revokes a session; its token stops working on the next request.
     *
     * @return false when no such session existed
     */
    public boolean revoke(String sessionId) {
        String hash = tokenHashById.remove(sessionId);
        return hash != null && byTokenHash.remove(hash) != null;
    }
}
