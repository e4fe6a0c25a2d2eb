package dev.gatehouse.gateway.console;

import dev.gatehouse.gateway.auth.GatewayProperties;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.cookie.Cookie;
import jakarta.inject.Singleton;
import java.util.Optional;

/**
 * The console's session cookie: {@value #NAME}, path {@code /console}, {@code HttpOnly}, {@code SameSite=Strict},
 * {@code Max-Age} the session's lifetime, and {@code Secure} when the gateway's public URL is https. It holds the
 * session's random id only. Written as a {@code Set-Cookie} header of its own: the servlet runtime's cookie mapping
 * drops {@code SameSite} and turns an unset age into an expired cookie.
 */
@Singleton
public class ConsoleCookie {

    public static final String NAME = "gatehouse_console";

    private final boolean secure;
    private final long maxAgeSeconds;

    public ConsoleCookie(GatewayProperties gateway, ConsoleProperties console) {
        this.secure = gateway.getPublicUrl().regionMatches(true, 0, "https:", 0, 6);
        this.maxAgeSeconds = console.getSessionLifetime().toSeconds();
    }

    /** The {@code Set-Cookie} value carrying {@code value} (a base64url session id: nothing to quote). */
    public String of(String value) {
        return header(value, maxAgeSeconds);
    }

    /** The {@code Set-Cookie} value that removes the session cookie from the browser. */
    public String cleared() {
        return header("", 0);
    }

    private String header(String value, long maxAge) {
        return NAME + "=" + value + "; Path=/console; Max-Age=" + maxAge + "; HttpOnly; SameSite=Strict"
                + (secure ? "; Secure" : "");
    }

    /** The session id the request's cookie holds, if any. */
    public static Optional<String> value(HttpRequest<?> request) {
        return request.getCookies().findCookie(NAME).map(Cookie::getValue).filter(v -> !v.isEmpty());
    }
}
