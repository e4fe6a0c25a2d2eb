package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.mcp.guard.Rejection;
import dev.gatehouse.gateway.store.StoreUnavailableException;
import io.micronaut.context.annotation.Requires;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import jakarta.inject.Singleton;
import java.util.Map;

/**
 * The admin API's answer when the shared store does not answer: 503 {@code {"error":"unavailable"}} with
 * {@code Retry-After}; nothing was written (every write is one statement).
 */
@Produces
@Singleton
@Requires(classes = {StoreUnavailableException.class, ExceptionHandler.class})
public class StoreUnavailableHandler
        implements ExceptionHandler<StoreUnavailableException, HttpResponse<Map<String, String>>> {

    @Override
    public HttpResponse<Map<String, String>> handle(HttpRequest request, StoreUnavailableException exception) {
        return HttpResponse.<Map<String, String>>status(HttpStatus.SERVICE_UNAVAILABLE)
                .header("Retry-After", Rejection.RETRY_AFTER_SECONDS)
                .body(Map.of("error", "unavailable"));
    }
}
