package dev.gatehouse.gateway.lifecycle;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.ErrorHandler;

/**
 * Jetty's error answer as {@code {"error": code, "message": reason phrase}} ({@code invalid_request} for 400,
 * {@code not_found} for 404, {@code internal_error} for 5xx but 505, {@code http_<status>} otherwise), whatever the
 * client accepts: no stack, no servlet name, no exception text, no Jetty version. A request target Jetty refuses as
 * ambiguous and names the violation of ({@link UriCompliance.Violation}, e.g. an encoded dot segment) is said in
 * Jetty's fixed words for it ("Ambiguous URI path segment"), which never hold text of the request. (Jetty 11 names no
 * reason for an encoded NUL: that one stays "Bad Request".)
 */
final class JsonErrorHandler extends ErrorHandler {

    /** Jetty's description of each way a request target can be ambiguous: fixed texts. */
    private static final Set<String> VIOLATIONS = Arrays.stream(UriCompliance.Violation.values())
            .map(UriCompliance.Violation::getDescription).collect(Collectors.toUnmodifiableSet());

    JsonErrorHandler() {
        setShowStacks(false);
        setShowServlet(false);
        setShowMessageInTitle(false);
    }

    @Override
    protected void generateAcceptableResponse(Request baseRequest, HttpServletRequest request,
            HttpServletResponse response, int code, String message) throws IOException {
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write(body(code, message));
        baseRequest.setHandled(true);
    }

    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        fields.put(new HttpField(HttpHeader.CONTENT_TYPE, "application/json;charset=utf-8"));
        return ByteBuffer.wrap(body(status, reason).getBytes(StandardCharsets.UTF_8));
    }

    /** @param reason Jetty's reason for the error, or {@code null}; said only when it is one of {@link #VIOLATIONS} */
    static String body(int status, String reason) {
        // Jetty gives no reason for most refusals (a header too large, a URI too long): null, which the set refuses.
        String message = reason != null && VIOLATIONS.contains(reason) ? reason : reason(status);
        return "{\"error\":\"" + error(status) + "\",\"message\":\"" + message.replace("\"", "'") + "\"}";
    }

    /** The {@code error} member for a status: a fixed word, never text from the request or an exception. */
    static String error(int status) {
        return switch (status) {
            case 400 -> "invalid_request";
            case 404 -> "not_found";
            case 505 -> "http_505"; // an HTTP version the container does not speak: the client's, not a fault here
            default -> status >= 500 ? "internal_error" : "http_" + status;
        };
    }

    /** The status's reason phrase (RFC 9110), {@code ""} for a status without one. */
    static String reason(int status) {
        String reason = HttpStatus.getMessage(status);
        return reason == null ? "" : reason;
    }
}
