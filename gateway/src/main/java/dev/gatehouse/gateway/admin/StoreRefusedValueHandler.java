package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.store.StoreRefusedValueException;
import io.micronaut.context.annotation.Requires;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * The answer when the shared store refused a value of the request (U+0000 in a text, which PostgreSQL cannot keep):
 * 400 {@code invalid_fields} on {@code body}, for the admin API and the console's forms alike. Nothing was written,
 * and a retry could never succeed, so this is never the 503 {@code unavailable} of {@link StoreUnavailableHandler}.
 */
@Produces
@Singleton
@Requires(classes = {StoreRefusedValueException.class, ExceptionHandler.class})
public class StoreRefusedValueHandler implements ExceptionHandler<StoreRefusedValueException, HttpResponse<?>> {

    @Override
    public HttpResponse<?> handle(HttpRequest request, StoreRefusedValueException exception) {
        return AdminResponses.refusal(List.of(FieldProblem.invalid(AdminBodies.BODY_FIELD,
                "A value holds a character that cannot be stored (such as U+0000).")));
    }
}
