package dev.gatehouse.localauth;

import com.nimbusds.oauth2.sdk.OAuth2Error;
import java.util.List;
import no.nav.security.mock.oauth2.http.OAuth2HttpRequest;
import no.nav.security.mock.oauth2.http.OAuth2HttpResponse;
import no.nav.security.mock.oauth2.http.OAuth2HttpResponseKt;
import no.nav.security.mock.oauth2.http.Route;

/**
 * Refuses an interactive login that supplies claims. mock-oauth2-server's login form has a free "claims" field whose
 * JSON it merges into the tokens over the claims the server decided, so whoever signs in could set
 * {@code t3_mode_ceiling}, {@value LocalAuthServer#OPERATOR_CLAIM}, {@code aud}, {@code iss} or {@code sub}. Here the
 * server alone decides them: a login whose form carries a non-blank {@code claims} value answers 400
 * {@code invalid_request} and issues no authorization code; a login with the user name only goes on to the library.
 */
final class LoginGuard implements Route {

    private static final String PATH = "/" + LocalAuthServer.ISSUER_ID + "/authorize";

    @Override
    public boolean match(OAuth2HttpRequest request) {
        return "POST".equals(request.getMethod()) && PATH.equals(request.getUrl().encodedPath())
                && FormParameters.of(request).getOrDefault("claims", List.of()).stream()
                        .anyMatch(value -> !value.isBlank());
    }

    @Override
    public OAuth2HttpResponse invoke(OAuth2HttpRequest request) {
        return OAuth2HttpResponseKt.oauth2Error(OAuth2Error.INVALID_REQUEST.setDescription(
                "local-auth does not take claims from the login form: it decides every claim itself"));
    }
}
