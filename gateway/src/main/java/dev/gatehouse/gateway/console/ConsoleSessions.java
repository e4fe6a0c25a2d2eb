package dev.gatehouse.gateway.console;

import java.util.Optional;

/**
 * Operators' console sessions, shared by every replica (PostgreSQL, {@code dev.gatehouse.gateway.store}): the cookie
 * holds a random id (256 bits), the store only its SHA-256. A session ends at sign-out, after the idle timeout without
 * a request, or at the end of its lifetime ({@link ConsoleProperties}), all compared with the database's clock. Every
 * method may throw {@link dev.gatehouse.gateway.store.StoreUnavailableException}.
 */
public interface ConsoleSessions {

    /** Starts a session for a signed-in operator; returns the cookie value, shown only here. */
    String start(Operator operator);

    /**
     * The session the cookie names, if it is current; each lookup counts as activity (the idle timeout restarts).
     */
    Optional<ConsoleSession> find(String cookieValue);

    /** Ends the session the cookie names (sign-out); nothing when there is none. */
    void end(String cookieValue);

    /**
     * Who signed in.
     *
     * @param subject     the ID token's {@code sub}: who the audit names
     * @param issuer      the ID token's {@code iss}
     * @param displayName for the page header only ({@code name} or {@code preferred_username}, else the subject)
     */
    record Operator(String subject, String issuer, String displayName) {
    }

    /**
     * A current session.
     *
     * @param operator  who
     * @param csrfToken the synchronizer token every change of this session must send back
     */
    record ConsoleSession(Operator operator, String csrfToken) {
    }
}
