package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.HiddenHeaders;
import dev.gatehouse.gateway.JsonContentType;
import dev.gatehouse.gateway.JsonDeclaredRequest;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The media type of an admin request body. Every admin route that takes a body ({@code POST} and {@code PUT}) reads
 * JSON in UTF-8 ({@link AdminBodies}), so its one {@code Content-Type} must say so by the gateway's one rule for
 * request bodies, the same as at {@code /mcp} ({@link JsonContentType}: {@code application/json} with no parameter but
 * {@code charset=utf-8}, by RFC 9110's grammar). Any other type ({@code text/plain}, a form, {@code application/*}),
 * another charset or parameter, a value outside the grammar, none at all, or two {@code Content-Type} headers is
 * answered 415 {@code {"error":"unsupported_media_type","message"}} before the body is read (with
 * {@code Connection: close}, as {@link BoundedAdminBody} refuses), where a JSON body sent as {@code text/plain} or with
 * no type was read all the same. An accepted request goes on declaring exactly {@code application/json}, the one
 * spelling Micronaut's route matching reads as JSON whatever the client wrote.
 *
 * <p>A request of any other method takes no body, so its {@code Content-Type}, if any, describes nothing the route
 * reads: it goes on without one (RFC 9110 §9.3.5: content in a {@code DELETE} has no defined meaning), where
 * Micronaut's route matching answered a {@code DELETE} sent with {@code text/plain} its own 415 and took
 * {@code application/json; foo=bar}.
 */
final class AdminContentType {

    private static final String CONTENT_TYPE = "Content-Type";

    /** The methods of the admin routes that take a body. */
    private static final Set<String> WITH_BODY = Set.of("POST", "PUT");

    /** What the 415 says: what is accepted. */
    static final String MESSAGE = "The request body must be sent as JSON in UTF-8: one Content-Type: application/json,"
            + " or application/json; charset=utf-8.";

    private AdminContentType() {
    }

    /**
     * The request to go on with, a {@code POST} or {@code PUT} declaring exactly {@code application/json}
     * ({@link JsonDeclaredRequest}) and any other without a {@code Content-Type}, or empty when its 415 answer was
     * written here. A {@code POST} or {@code PUT} no route answers ({@code routed} false) goes on as it came, so the
     * dispatcher answers it 404, or 405 with {@code Allow}, whatever its type (a new user's trial got 415 for
     * {@code PUT /admin/nonexistent} and {@code POST /admin/agents/a1} without a type).
     *
     * @throws IOException when the answer cannot be written
     */
    static Optional<HttpServletRequest> check(HttpServletRequest request, HttpServletResponse response,
            Predicate<HttpServletRequest> routed) throws IOException {
        if (WITH_BODY.contains(request.getMethod()) && !routed.test(request)) {
            return Optional.of(request); // no route takes it: its 404 or 405 says more than a 415 would
        }
        if (!WITH_BODY.contains(request.getMethod())) {
            return Optional.of(request.getHeader(CONTENT_TYPE) == null ? request
                    : new HiddenHeaders(request, Set.of(CONTENT_TYPE)));
        }
        if (JsonContentType.declared(request.getHeaders(CONTENT_TYPE))) {
            return Optional.of(new JsonDeclaredRequest(request));
        }
        BoundedAdminBody.refuse(response, HttpServletResponse.SC_UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type",
                MESSAGE);
        return Optional.empty();
    }
}
