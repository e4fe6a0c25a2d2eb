package dev.gatehouse.gateway.auth;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Thread callers' sessions, keyed by the SHA-256 of their bearer token (the token itself is never stored). Shared by
 * every replica (PostgreSQL, {@code dev.gatehouse.gateway.store}): a session minted on one replica works on all, and
 * a revocation or an expiry applies on all at the next call after the store announced it, and at the latest
 * {@code gatehouse.database.cache-ttl} (≤ 1 s) after it (store.StoreChanges).
 *
 * <p>Every method may throw {@link dev.gatehouse.gateway.store.StoreUnavailableException} when the store does not
 * answer; callers turn that into {@code unavailable}, never into a denial or an acceptance.
 */
public interface SessionStore {

    /** Stores {@code session} under the hash of {@code token}; it expires after the configured lifetime. */
    void put(String token, AgentSession session);

    /** The session a presented token belongs to, if it is current (known, not revoked, not expired). */
    Optional<AgentSession> findByToken(String token);

    /**
     * Revokes a session; its token stops working on the next request on every replica.
     *
     * @return false when no such current session existed
     */
    boolean revoke(String sessionId);

    /** The current sessions, newest first, without any token or hash. */
    List<Listed> current();

    /**
     * One current session as the admin API lists it.
     *
     * @param session   the session
     * @param createdAt when it was attached
     * @param expiresAt when its token stops working
     */
    record Listed(AgentSession session, Instant createdAt, Instant expiresAt) {
    }
}
