package dev.gatehouse.localauth;

import com.nimbusds.oauth2.sdk.ErrorObject;
import com.nimbusds.oauth2.sdk.OAuth2Error;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import no.nav.security.mock.oauth2.http.OAuth2HttpRequest;
import no.nav.security.mock.oauth2.http.OAuth2HttpResponse;
import no.nav.security.mock.oauth2.http.OAuth2HttpResponseKt;
import no.nav.security.mock.oauth2.http.Route;

/**
 * Refuses, at the token endpoint, every request for something local-auth does not issue, before mock-oauth2-server
 * sees it; whatever passes gets the claims the server's request mappings decide ({@link LocalAuthServer#config}).
 * Refused with 400 and the RFC 6749 §5.2 error object:
 * <ul>
 * <li>a grant other than {@code client_credentials} and {@code authorization_code}: {@code unsupported_grant_type}
 * (the library's password, token-exchange, JWT-bearer and refresh grants take the subject or claims from the
 * request);</li>
 * <li>{@code grant_type} given twice: {@code invalid_request} (RFC 6749 §3.2: parameters are sent at most once);</li>
 * <li>a parameter those two grants do not define: {@code invalid_request} (the library matches its mappings on, and
 * fills claim templates from, any form parameter, e.g. {@code subject});</li>
 * <li>a {@code resource} (RFC 8707) other than the configured audience: {@code invalid_target};</li>
 * <li>a {@code scope} holding anything but the configured scope (and, for the authorization code grant, the OpenID
 * Connect scopes): {@code invalid_scope}.</li>
 * </ul>
 * Without {@code resource} or {@code scope} the token still gets the configured audience and scope.
 */
final class TokenRequestGuard implements Route {

    private static final String PATH = "/" + LocalAuthServer.ISSUER_ID + "/token";
    private static final Set<String> GRANTS = Set.of("client_credentials", "authorization_code");
    private static final Set<String> PARAMETERS = Set.of("grant_type", "client_id", "client_secret", "scope",
            "resource", "code", "redirect_uri", "code_verifier");
    private static final Set<String> OPENID_SCOPES = Set.of("openid", "profile", "email", "offline_access");

    private final String audience;
    private final String scope;

    TokenRequestGuard(String audience, String scope) {
        this.audience = audience;
        this.scope = scope;
    }

    @Override
    public boolean match(OAuth2HttpRequest request) {
        return refusal(request).isPresent();
    }

    @Override
    public OAuth2HttpResponse invoke(OAuth2HttpRequest request) {
        return OAuth2HttpResponseKt.oauth2Error(refusal(request).orElseThrow());
    }

    private Optional<ErrorObject> refusal(OAuth2HttpRequest request) {
        if (!"POST".equals(request.getMethod()) || !PATH.equals(request.getUrl().encodedPath())) {
            return Optional.empty();
        }
        Map<String, List<String>> form = FormParameters.of(request);
        List<String> grants = form.getOrDefault("grant_type", List.of());
        if (grants.size() > 1) { // which one counts would be a guess (RFC 6749 §3.2: sent at most once)
            return Optional.of(OAuth2Error.INVALID_REQUEST.setDescription("grant_type given more than once"));
        }
        if (grants.size() != 1 || !GRANTS.contains(grants.get(0))) {
            return Optional.of(OAuth2Error.UNSUPPORTED_GRANT_TYPE.setDescription(
                    "local-auth issues tokens for client_credentials and authorization_code only"));
        }
        Optional<String> unknown = form.keySet().stream().filter(name -> !PARAMETERS.contains(name)).sorted()
                .findFirst();
        if (unknown.isPresent() || request.getUrl().querySize() > 0) {
            return Optional.of(OAuth2Error.INVALID_REQUEST.setDescription("parameter not accepted: "
                    + unknown.orElse("(query string)")));
        }
        if (form.getOrDefault("resource", List.of()).stream().anyMatch(resource -> !resource.equals(audience))) {
            return Optional.of(new ErrorObject("invalid_target", "the only resource is " + audience, 400));
        }
        boolean openId = grants.get(0).equals("authorization_code");
        boolean otherScope = form.getOrDefault("scope", List.of()).stream()
                .flatMap(value -> List.of(value.trim().split(" +")).stream()).filter(token -> !token.isEmpty())
                .anyMatch(token -> !token.equals(scope) && !(openId && OPENID_SCOPES.contains(token)));
        if (otherScope) {
            return Optional.of(OAuth2Error.INVALID_SCOPE.setDescription("the only scope is " + scope));
        }
        return Optional.empty();
    }
}
