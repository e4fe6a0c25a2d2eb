package dev.gatehouse.gateway.console;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.security.authentication.AuthenticationResponse;
import io.micronaut.security.handlers.RedirectingLoginHandler;
import io.micronaut.views.ModelAndView;
import jakarta.inject.Singleton;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What follows the OpenID callback (Micronaut Security's {@code OauthController} calls it once the ID token is
 * validated and {@link OperatorMapper} has read the operator claim):
 * <ul>
 * <li>an operator gets a new console session (its cookie: {@link ConsoleCookie}) and a page that moves on to
 * {@code /console}: a page rather than a redirect, because a {@code SameSite=Strict} cookie set during a redirect
 * chain that began at another site (the identity provider) would not be sent with the redirect's request;</li>
 * <li>a signed-in user who is not an operator gets 403 and no session; any other failure (state, nonce, token
 * validation, the provider's own error) gets 401 with a way back to sign-in.</li>
 * </ul>
 */
@Singleton
public class ConsoleLoginHandler implements RedirectingLoginHandler<HttpRequest<?>, MutableHttpResponse<?>> {

    private static final Logger LOG = LoggerFactory.getLogger(ConsoleLoginHandler.class);

    private final ConsoleSessions sessions;
    private final ConsoleCookie cookie;

    public ConsoleLoginHandler(ConsoleSessions sessions, ConsoleCookie cookie) {
        this.sessions = sessions;
        this.cookie = cookie;
    }

    @Override
    public MutableHttpResponse<?> loginSuccess(Authentication authentication, HttpRequest<?> request) {
        Map<String, Object> attributes = authentication.getAttributes();
        String value = sessions.start(new ConsoleSessions.Operator(authentication.getName(),
                String.valueOf(attributes.getOrDefault(OperatorMapper.ISSUER, "")),
                String.valueOf(attributes.getOrDefault(ConsoleAuthenticationFetcher.DISPLAY_NAME,
                        authentication.getName()))));
        return HttpResponse.ok(new ModelAndView<>("console/signed-in", Map.of("page", Page.anonymous("Signed in"))))
                .header("Set-Cookie", cookie.of(value));
    }

    @Override
    public MutableHttpResponse<?> loginRefresh(Authentication authentication, String refreshToken,
            HttpRequest<?> request) {
        return HttpResponse.status(HttpStatus.NOT_FOUND);
    }

    @Override
    public MutableHttpResponse<?> loginFailed(AuthenticationResponse response, HttpRequest<?> request) {
        boolean notOperator = response.getMessage().filter(OperatorMapper.NOT_OPERATOR::equals).isPresent();
        HttpStatus status = notOperator ? HttpStatus.FORBIDDEN : HttpStatus.UNAUTHORIZED;
        // One line, no stack: a failed sign-in is the caller's (a forged or stale state, a refused account).
        LOG.warn("console sign-in failed ({}): {}", status.getCode(), response.getMessage().orElse("no reason given"));
        String message = notOperator
                ? "You signed in, but your account is not an operator of this gateway. Ask an administrator to give"
                        + " you the operator role."
                : "Sign-in did not complete. Try again.";
        return HttpResponse.status(status).body(new ModelAndView<>("console/refused", Map.of(
                "page", Page.anonymous(notOperator ? "Not an operator" : "Sign-in failed"), "message", message)));
    }
}
