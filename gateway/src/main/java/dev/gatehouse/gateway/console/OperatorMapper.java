package dev.gatehouse.gateway.console;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.security.authentication.AuthenticationResponse;
import io.micronaut.security.oauth2.endpoint.authorization.state.State;
import io.micronaut.security.oauth2.endpoint.token.response.OpenIdAuthenticationMapper;
import io.micronaut.security.oauth2.endpoint.token.response.OpenIdClaims;
import io.micronaut.security.oauth2.endpoint.token.response.OpenIdTokenResponse;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

/**
 * Who may use the console, read from the ID token the OpenID client (Micronaut Security) has already validated
 * (signature, issuer, audience, nonce, expiry): a user whose token carries {@code gatehouse.console.operator-claim}
 * holding {@code operator-role} (a string equal to it, or a list with it). Anyone else fails with
 * {@value #NOT_OPERATOR} and is shown 403 ({@link ConsoleLoginHandler}). Tokens are not kept: the authentication
 * carries the subject, issuer and a display name.
 */
@Singleton
@Named("console")
public class OperatorMapper implements OpenIdAuthenticationMapper {

    /** The failure message of a user who is not an operator. */
    public static final String NOT_OPERATOR = "not_operator";
    /** Attribute: the token's issuer. */
    public static final String ISSUER = "iss";

    private final ConsoleProperties properties;

    public OperatorMapper(ConsoleProperties properties) {
        this.properties = properties;
    }

    @Override
    public Publisher<AuthenticationResponse> createAuthenticationResponse(String providerName,
            OpenIdTokenResponse tokenResponse, OpenIdClaims claims, @Nullable State state) {
        if (!holdsRole(claims.get(properties.getOperatorClaim()))) {
            return Mono.just(AuthenticationResponse.failure(NOT_OPERATOR));
        }
        String subject = claims.getSubject();
        String display = Optional.ofNullable(claims.getName()).or(() -> Optional.ofNullable(
                claims.getPreferredUsername())).filter(n -> !n.isBlank()).orElse(subject);
        return Mono.just(AuthenticationResponse.success(subject, java.util.List.of(
                ConsoleAuthenticationFetcher.OPERATOR_ROLE), Map.of(ISSUER, claims.getIssuer(),
                ConsoleAuthenticationFetcher.DISPLAY_NAME, display)));
    }

    private boolean holdsRole(@Nullable Object claim) {
        String role = properties.getOperatorRole();
        if (claim instanceof String single) {
            return single.equals(role);
        }
        return claim instanceof Collection<?> many && many.stream().anyMatch(role::equals);
    }
}
