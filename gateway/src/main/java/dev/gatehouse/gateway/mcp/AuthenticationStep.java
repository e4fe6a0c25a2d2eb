package dev.gatehouse.gateway.mcp;

import dev.gatehouse.gateway.auth.AuthChallenge;
import dev.gatehouse.gateway.auth.Authenticator;
import dev.gatehouse.gateway.mcp.guard.Rejection;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;

/**
 * {@code authentication}: a session token or an OAuth JWT in {@code Authorization} (401 with
 * {@code WWW-Authenticate} otherwise, RFC 9728); 503 {@code unavailable} with {@code Retry-After} when the session
 * store did not answer. Identity headers and {@code _meta} identity keys are never read.
 */
final class AuthenticationStep implements TransportStep {

    private final Authenticator authenticator;
    private final AuthChallenge challenge;

    AuthenticationStep(Authenticator authenticator, AuthChallenge challenge) {
        this.authenticator = authenticator;
        this.challenge = challenge;
    }

    @Override
    public String name() {
        return "authentication";
    }

    @Override
    public Optional<Rejection> apply(Exchange exchange) {
        // Two credentials in one request would let the first one win silently: refuse the request instead.
        if (Collections.list(exchange.request.getHeaders("Authorization")).size() > 1) {
            return Optional.of(Rejection.jsonRpc(400, Rejection.INVALID_REQUEST, "one Authorization header only"));
        }
        Authenticator.Result result = authenticator.authenticate(
                Optional.ofNullable(exchange.request.getHeader("Authorization")));
        if (result instanceof Authenticator.Result.Unavailable) {
            return Optional.of(Rejection.unavailable().withId(exchange.id()));
        }
        if (result instanceof Authenticator.Result.Rejected rejected) {
            return Optional.of(new Rejection(rejected.failure().status(), Optional.of(Rejection.INVALID_REQUEST),
                    rejected.failure().message(),
                    Optional.empty(), Map.of("WWW-Authenticate", challenge.header(rejected.failure()))));
        }
        exchange.identity = ((Authenticator.Result.Accepted) result).who();
        return Optional.empty();
    }
}
