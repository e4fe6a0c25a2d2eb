package dev.gatehouse.gateway.lifecycle;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import io.micronaut.http.server.exceptions.response.ErrorContext;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;
import jakarta.inject.Singleton;
import org.eclipse.jetty.http.BadMessageException;
import org.eclipse.jetty.server.handler.ContextHandler;

/**
 * A form body Jetty refuses to parse when a route binds it (the console's forms, the sign-in callback): longer than
 * Jetty's form limit ({@value ContextHandler#DEFAULT_MAX_FORM_CONTENT_SIZE} bytes) by its {@code Content-Length} is
 * 413, anything else Jetty calls a bad message (broken encoding, a longer chunked body) keeps Jetty's status (400).
 * Answered as every error Micronaut answers itself ({@link JsonErrorBodies} for JSON, a page for a browser), with no
 * exception text and no stack in the log: before, it was 500 and an ERROR with Jetty's stack, also for a stranger.
 */
@Produces
@Singleton
public class UnreadableFormHandler implements ExceptionHandler<BadMessageException, HttpResponse<?>> {

    private final ErrorResponseProcessor<?> errors;

    public UnreadableFormHandler(ErrorResponseProcessor<?> errors) {
        this.errors = errors;
    }

    @Override
    public HttpResponse<?> handle(HttpRequest request, BadMessageException exception) {
        boolean tooLarge = request.getContentLength() > ContextHandler.DEFAULT_MAX_FORM_CONTENT_SIZE;
        HttpStatus status = tooLarge ? HttpStatus.REQUEST_ENTITY_TOO_LARGE : HttpStatus.valueOf(exception.getCode());
        String message = tooLarge ? "The form is longer than " + ContextHandler.DEFAULT_MAX_FORM_CONTENT_SIZE
                + " bytes; nothing was changed." : "The form could not be read; nothing was changed.";
        return errors.processResponse(ErrorContext.builder(request).errorMessage(message).build(),
                HttpResponse.status(status));
    }
}
