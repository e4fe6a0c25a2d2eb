package dev.gatehouse.gateway.auth;

import dev.gatehouse.gateway.store.StoreUnavailableException;
import jakarta.inject.Singleton;
import java.util.Optional;

/**
 * Resolves the {@code Authorization} header of an {@code /mcp} request to a principal. Two credential kinds are
 * tried in a fixed order: a thread session token (opaque, looked up by hash), then an outside agent's OAuth JWT.
 * The kind is decided by which check accepted the credential. The admin credential is neither, so it never
 * authenticates here.
 */
@Singleton
public class Authenticator {

    private static final String BEARER = "bearer ";

    private final SessionStore sessions;
    private final OAuthTokenVerifier oauth;

    public Authenticator(SessionStore sessions, OAuthTokenVerifier oauth) {
        this.sessions = sessions;
        this.oauth = oauth;
    }

    /** The outcome of authenticating one request: the principal, or why there is none. */
    public sealed interface Result {
        record Accepted(Authenticated who) implements Result {
        }

        record Rejected(AuthFailure failure) implements Result {
        }

        /** The session store did not answer: nothing is known about the credential (HTTP 503, retryable). */
        record Unavailable() implements Result {
        }
    }

    /**
     * @param authorization the raw {@code Authorization} header, if any
     * @return the principal, or {@link AuthFailure#MISSING_CREDENTIAL} / {@link AuthFailure#INVALID_TOKEN} /
     *         {@link AuthFailure#INSUFFICIENT_SCOPE}, or
     *         {@link Result.Unavailable} when the session store did not answer
     */
    public Result authenticate(Optional<String> authorization) {
        Optional<String> token = authorization
                .filter(h -> h.regionMatches(true, 0, BEARER, 0, BEARER.length()))
                .map(h -> h.substring(BEARER.length()).trim())
                .filter(t -> !t.isEmpty());
        if (token.isEmpty()) {
            return new Result.Rejected(AuthFailure.MISSING_CREDENTIAL);
        }
        Optional<AgentSession> session;
        try {
            // Anything but a minted token's shape is never looked up in the store.
            session = SessionTokens.hasMintedShape(token.get()) ? sessions.findByToken(token.get()) : Optional.empty();
        } catch (StoreUnavailableException e) {
            return new Result.Unavailable();
        }
        if (session.isPresent()) {
            return new Result.Accepted(new Authenticated.ThreadCaller(session.get()));
        }
        OAuthTokenVerifier.Verification verification = oauth.verify(token.get());
        if (verification instanceof OAuthTokenVerifier.Verification.Refused refused) {
            return new Result.Rejected(refused.failure());
        }
        return new Result.Accepted(verification.agent().orElseThrow());
    }
}
