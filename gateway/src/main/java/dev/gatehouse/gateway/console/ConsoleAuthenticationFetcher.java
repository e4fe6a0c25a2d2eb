package dev.gatehouse.gateway.console;

import dev.gatehouse.gateway.store.StoreUnavailableException;
import io.micronaut.http.HttpRequest;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.security.filters.AuthenticationFetcher;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;

/**
 * Authenticates console requests by their session cookie ({@link ConsoleCookie}) and nothing else: an
 * {@code Authorization} header (an MCP session token, an OAuth access token, the admin credential) is never read
 * here, and the {@code /mcp} endpoint never reads this cookie. The authentication carries the operator's subject,
 * display name and the session's CSRF token ({@link #CSRF}). Runs only on {@code /console/**}, where Micronaut
 * Security's filter is mounted.
 */
@Singleton
public class ConsoleAuthenticationFetcher implements AuthenticationFetcher<HttpRequest<?>> {

    /** Attribute: the session's synchronizer token. */
    public static final String CSRF = "csrf";
    /** Attribute: the operator's display name. */
    public static final String DISPLAY_NAME = "displayName";
    /** The one role every console session has. */
    public static final String OPERATOR_ROLE = "operator";

    private final ConsoleSessions sessions;

    public ConsoleAuthenticationFetcher(ConsoleSessions sessions) {
        this.sessions = sessions;
    }

    @Override
    public Publisher<Authentication> fetchAuthentication(HttpRequest<?> request) {
        Optional<String> cookie = ConsoleCookie.value(request);
        if (cookie.isEmpty()) {
            return Mono.empty();
        }
        return Mono.fromCallable(() -> lookup(cookie.get()).orElse(null));
    }

    private Optional<Authentication> lookup(String cookie) {
        try {
            return sessions.find(cookie).map(session -> Authentication.build(session.operator().subject(),
                    List.of(OPERATOR_ROLE), Map.of(CSRF, session.csrfToken(),
                            DISPLAY_NAME, session.operator().displayName())));
        } catch (StoreUnavailableException e) {
            // Not signed in while the store does not answer: the console's pages cannot be served without it anyway.
            return Optional.empty();
        }
    }
}
