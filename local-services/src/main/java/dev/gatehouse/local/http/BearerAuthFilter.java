package dev.gatehouse.local.http;

import dev.gatehouse.local.config.LocalServicesConfig;
import io.micronaut.context.annotation.Context;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Every request must carry {@code Authorization: Bearer <gatehouse.local.credential>}; otherwise 401
 * {@code unauthenticated}. Every answer carries {@code Api-Version: 1}. Built at start-up so a missing credential
 * stops the service instead of leaving it open.
 */
@Context
@ServerFilter("/**")
public class BearerAuthFilter {

    /** The contract generation served (see schemas/services/README.md). */
    public static final String API_VERSION = "1";

    private final byte[] expected;

    public BearerAuthFilter(LocalServicesConfig config) {
        String credential = config.getCredential();
        if (credential == null || credential.isBlank()) {
            throw new IllegalStateException("gatehouse.local.credential is not set (GATEHOUSE_LOCAL_CREDENTIAL)");
        }
        this.expected = ("Bearer " + credential.strip()).getBytes(StandardCharsets.UTF_8);
    }

    /** Refuses a request without the configured credential; {@code null} lets it through. */
    @RequestFilter
    @Nullable
    public HttpResponse<byte[]> authenticate(HttpRequest<?> request) {
        String header = request.getHeaders().get(HttpHeaders.AUTHORIZATION);
        // Constant-time comparison: the credential must not leak through response timing.
        if (header != null && MessageDigest.isEqual(expected, header.getBytes(StandardCharsets.UTF_8))) {
            return null;
        }
        return ApiResponses.error(HttpStatus.UNAUTHORIZED, "unauthenticated", "missing or wrong credential");
    }

    /** Stamps the contract generation on every answer. */
    @ResponseFilter
    public void stampVersion(MutableHttpResponse<?> response) {
        response.header("Api-Version", API_VERSION);
    }
}
