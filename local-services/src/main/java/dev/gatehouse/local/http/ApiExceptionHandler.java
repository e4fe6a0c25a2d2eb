package dev.gatehouse.local.http;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import jakarta.inject.Singleton;

/** Turns an {@link ApiException} into the contract's error body. */
@Produces
@Singleton
public class ApiExceptionHandler implements ExceptionHandler<ApiException, HttpResponse<byte[]>> {

    @Override
    public HttpResponse<byte[]> handle(HttpRequest request, ApiException exception) {
        return ApiResponses.error(exception.status(), exception.code(), exception.getMessage());
    }
}
