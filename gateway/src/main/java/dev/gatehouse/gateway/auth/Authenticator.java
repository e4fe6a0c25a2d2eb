package dev.gatehouse.gateway.auth;

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
    }

    /**
     * @param authorization the raw {@code Authorization} header, if any
     * @return the principal, or {@link AuthFailure#MISSING_CREDENTIAL} / {@link AuthFailure#INVALID_TOKEN}
     */
    public Result authenticate(Optional<String> authorization) {
        Optional<String> token = authorization
                .filter(h -> h.regionMatches(true, 0, BEARER, 0, BEARER.length()))
                .map(h -> h.substring(BEARER.length()).trim())
                .filter(t -> !t.isEmpty());
        if (token.isEmpty()) {
            return new Result.Rejected(AuthFailure.MISSING_CREDENTIAL);
        }
        Optional<Authenticated> who = sessions.findByToken(token.get())
                .<Authenticated>map(Authenticated.ThreadCaller::new)
                .or(() -> oauth.verify(token.get()));
        return who.<Result>map(Result.Accepted::new)
                .orElse(new Result.Rejected(AuthFailure.INVALID_TOKEN));
    }
}
