package dev.gatehouse.gateway.admin;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Admits a request to {@code /admin/*} only with {@code Authorization: Bearer <gatehouse.admin.credential>},
 * compared in constant time (SHA-256 digests compared with {@link MessageDigest#isEqual}); anything else is 401,
 * also a request with two {@code Authorization} headers, even when one of them holds the credential.
 * Agents' session tokens and JWTs are never accepted here, and the admin credential is never accepted at
 * {@code /mcp}. An admitted {@code POST} or {@code PUT} a route answers must declare a JSON body
 * ({@link AdminContentType}, else 415; one no route answers is the dispatcher's 404 or 405, whatever its type),
 * and an admitted request's body is then read within {@code gatehouse.admin.max-body-bytes} ({@link BoundedAdminBody}).
 * A servlet filter, mounted by {@link AdminFilterFactory}, so it runs before Micronaut's dispatcher (like the
 * {@code /mcp} servlet).
 */
public class AdminCredentialFilter implements Filter {

    /** The scheme is case-insensitive (RFC 9110 §11.1), as {@code /mcp} reads it. */
    private static final String BEARER = "bearer ";

    private final Optional<byte[]> expected;
    private final int maxBodyBytes;
    private final Predicate<HttpServletRequest> routed;

    /** @param routed whether a route answers a request's method and path (else the dispatcher answers 404 or 405) */
    public AdminCredentialFilter(AdminProperties properties, Predicate<HttpServletRequest> routed) {
        this.expected = properties.getCredential().map(AdminCredentialFilter::digest);
        this.maxBodyBytes = properties.getMaxBodyBytes();
        this.routed = routed;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        List<String> authorizations = Collections.list(((HttpServletRequest) request).getHeaders("Authorization"));
        // Two credentials in one request would let the first one win silently; neither is admitted (as at /mcp).
        Optional<byte[]> presented = Optional.of(authorizations).filter(all -> all.size() == 1).map(all -> all.get(0))
                .filter(h -> h.regionMatches(true, 0, BEARER, 0, BEARER.length()))
                .map(h -> digest(h.substring(BEARER.length()).trim()));
        if (expected.isPresent() && presented.isPresent() && MessageDigest.isEqual(expected.get(), presented.get())) {
            // Only an admitted request's body is read: a stranger's is never buffered, nor one that is not JSON.
            Optional<HttpServletRequest> typed = AdminContentType.check((HttpServletRequest) request,
                    (HttpServletResponse) response, routed);
            if (typed.isEmpty()) {
                return;
            }
            Optional<HttpServletRequest> bounded = BoundedAdminBody.read(typed.get(), (HttpServletResponse) response,
                    maxBodyBytes);
            if (bounded.isPresent()) {
                chain.doFilter(bounded.get(), response);
            }
            return;
        }
        HttpServletResponse http = (HttpServletResponse) response;
        http.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
        // The request body was not read: close the connection so no unread bytes are taken for the next request.
        http.setHeader("Connection", "close");
        http.setHeader("WWW-Authenticate", "Bearer realm=\"gatehouse-admin\"");
        http.setContentType("application/json");
        http.getOutputStream().write("{\"error\":\"unauthorized\"}".getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] digest(String value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }
}
