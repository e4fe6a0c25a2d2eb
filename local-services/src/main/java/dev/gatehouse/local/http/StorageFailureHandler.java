package dev.gatehouse.local.http;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import jakarta.inject.Singleton;
import java.io.UncheckedIOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A failed read or write of the data directory: 500 {@code storage_failure} in the contract's error shape. The
 * gateway reads a 500 on a mutation as {@code uncertain}, which is the truth: the change may be on disk or not.
 */
@Produces
@Singleton
public class StorageFailureHandler implements ExceptionHandler<UncheckedIOException, HttpResponse<byte[]>> {

    private static final Logger LOG = LoggerFactory.getLogger(StorageFailureHandler.class);

    @Override
    public HttpResponse<byte[]> handle(HttpRequest request, UncheckedIOException exception) {
        LOG.error("storage failure on {} {}", request.getMethod(), request.getPath(), exception);
        return ApiResponses.error(HttpStatus.INTERNAL_SERVER_ERROR, "storage_failure", "the data directory failed");
    }
}
