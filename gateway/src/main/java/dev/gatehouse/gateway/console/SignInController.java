package dev.gatehouse.gateway.console;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.Post;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.views.ModelAndView;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code GET /console/sign-in}: the way in (a link to the OpenID client's login route,
 * {@code /console/oauth/login/console}, when the console is enabled); where an unauthenticated or expired request is
 * sent. {@code POST /console/sign-out} (with the session's CSRF token) ends the session on every replica and clears
 * the cookie.
 */
@Controller("/console")
@Produces(MediaType.TEXT_HTML)
public class SignInController {

    private final ConsoleProperties properties;
    private final ConsoleSessions sessions;
    private final ConsoleCookie cookie;

    public SignInController(ConsoleProperties properties, ConsoleSessions sessions, ConsoleCookie cookie) {
        this.properties = properties;
        this.sessions = sessions;
        this.cookie = cookie;
    }

    @Get("/sign-in")
    public HttpResponse<?> signIn(HttpRequest<?> request) {
        PageParameters parameters = PageParameters.of(request, "signed-out");
        boolean signedOut = parameters.flag("signed-out");
        if (!parameters.ok()) {
            return parameters.refused(Page.anonymous("Sign in"), "/console/sign-in");
        }
        return HttpResponse.ok(new ModelAndView<>("console/sign-in", Map.of("page", Page.anonymous("Sign in"),
                "enabled", properties.isEnabled(), "signedOut", signedOut)));
    }

    @Post(value = "/sign-out", consumes = MediaType.APPLICATION_FORM_URLENCODED)
    public HttpResponse<?> signOut(HttpRequest<?> request, Authentication operator, @Body Map<String, String> form) {
        if (!ConsolePages.csrfOk(operator, form)) {
            return ConsolePages.csrfRefused();
        }
        Optional<MutableHttpResponse<?>> refused = ConsolePages.actionRefused(operator, form, List.of(), "/console");
        if (refused.isPresent()) {
            return refused.get();
        }
        ConsoleCookie.value(request).ifPresent(sessions::end);
        return ConsolePages.seeOther("/console/sign-in?signed-out").header("Set-Cookie", cookie.cleared());
    }
}
