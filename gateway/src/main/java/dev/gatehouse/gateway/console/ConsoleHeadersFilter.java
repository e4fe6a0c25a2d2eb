package dev.gatehouse.gateway.console;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;

/**
 * Security headers on every console answer: a Content-Security-Policy that allows no script at all, styles only from
 * the console's own stylesheet, no frames, forms only to the gateway itself; no sniffing, no referrer to other sites
 * ({@code same-origin}: with {@code no-referrer} the browser sends {@code Origin: null} with a form, which Micronaut's
 * CORS filter refuses), no framing; and no caching of pages (a token shown once must not be kept by the browser).
 */
@ServerFilter("/console/**")
public class ConsoleHeadersFilter {

    /** The console's policy: nothing inline, nothing from elsewhere. */
    public static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'none'; style-src 'self';"
            + " img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

    @ResponseFilter
    public void headers(HttpRequest<?> request, MutableHttpResponse<?> response) {
        response.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
        response.header("X-Content-Type-Options", "nosniff");
        response.header("Referrer-Policy", "same-origin");
        response.header("X-Frame-Options", "DENY");
        if (!request.getPath().startsWith("/console/static/")) {
            response.header("Cache-Control", "no-store");
        }
    }
}
