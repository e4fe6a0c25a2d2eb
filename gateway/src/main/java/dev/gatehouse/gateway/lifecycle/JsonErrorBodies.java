package dev.gatehouse.gateway.lifecycle;

import io.micronaut.context.annotation.Replaces;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.server.exceptions.response.ErrorContext;
import io.micronaut.http.server.exceptions.response.JsonErrorResponseBodyProvider;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The body of an error Micronaut answers itself for a client that takes JSON (no route: 404, a method the route does
 * not take: 405, a Content-Type it does not consume: 415, a security rule: 401/403): {@code {"error", "message"}} as
 * Jetty's own errors ({@link JsonErrorHandler#body}), instead of Micronaut's {@code _links}/{@code _embedded} form.
 * No exception text: the status says what went wrong. A browser asking for HTML still gets Micronaut's page.
 */
@Singleton
@Replaces(JsonErrorResponseBodyProvider.class)
final class JsonErrorBodies implements JsonErrorResponseBodyProvider<Map<String, String>> {

    @Override
    public Map<String, String> body(ErrorContext context, HttpResponse<?> response) {
        Map<String, String> body = new LinkedHashMap<>();
        body.put("error", JsonErrorHandler.error(response.code()));
        body.put("message", JsonErrorHandler.reason(response.code()));
        return body;
    }
}
