package dev.gatehouse.gateway.console;

import dev.gatehouse.gateway.auth.GatewayProperties;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.cookie.Cookie;
import io.micronaut.http.cookie.SameSite;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Optional;

/**
 * The console's session cookie: {@value #NAME}, path {@code /console}, {@code HttpOnly}, {@code SameSite=Strict},
 * and {@code Secure} when the gateway's public URL is https. It holds the session's random id only.
 */
@Singleton
public class ConsoleCookie {

    public static final String NAME = "gatehouse_console";

    private final boolean secure;

    public ConsoleCookie(GatewayProperties gateway) {
        this.secure = gateway.getPublicUrl().regionMatches(true, 0, "https:", 0, 6);
    }

    /** The cookie carrying {@code value}. */
    public Cookie of(String value) {
        return Cookie.of(NAME, value).path("/console").httpOnly(true).secure(secure).sameSite(SameSite.Strict);
    }

    /** A cookie that removes the session cookie from the browser. */
    public Cookie cleared() {
        return of("").maxAge(Duration.ZERO);
    }

    /** The session id the request's cookie holds, if any. */
    public static Optional<String> value(HttpRequest<?> request) {
        return request.getCookies().findCookie(NAME).map(Cookie::getValue).filter(v -> !v.isEmpty());
    }
}
