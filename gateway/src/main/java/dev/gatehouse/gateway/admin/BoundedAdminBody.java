package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.BufferedBodyRequest;
import dev.gatehouse.gateway.mcp.guard.BoundedBody;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads an admin request's body whole within {@code gatehouse.admin.max-body-bytes} before Micronaut binds it, as
 * {@code /mcp} does ({@link BoundedBody}): a declared {@code Content-Length} over the limit is refused unread, a
 * chunked body as soon as it passes the limit. Refused: 413 {@code {"error":"payload_too_large","message"}}; a body
 * that ends before its {@code Content-Length}, a chunked one whose framing is malformed or that ends before its last
 * chunk, or one that stalls past the idle timeout: 400 {@code {"error":"invalid_request","message"}}, the message
 * naming the framing that failed; both with {@code Connection: close}, since the rest of the body is
 * left unread. Without this, a body of any size was read into memory and refused as "Not valid JSON." only when
 * Jackson's string limit (20 MB) tripped.
 */
final class BoundedAdminBody {

    private BoundedAdminBody() {
    }

    /**
     * The request with its body read, or empty when the answer was written here.
     *
     * @param limit the largest accepted body, in bytes
     * @throws IOException when the answer cannot be written
     */
    static Optional<HttpServletRequest> read(HttpServletRequest request, HttpServletResponse response, int limit)
            throws IOException {
        long length = request.getContentLengthLong();
        if (length <= 0 && request.getHeader("Transfer-Encoding") == null) {
            return Optional.of(request); // no body: nothing to read or bound
        }
        BoundedBody.Result read;
        try {
            read = BoundedBody.read(request.getInputStream(),
                    length >= 0 ? OptionalLong.of(length) : OptionalLong.empty(), limit);
        } catch (IOException e) { // the client's body ended early, was malformed or stalled: its error, not ours
            refuse(response, 400, "invalid_request", length >= 0
                    ? "The request body ended before its Content-Length, or stalled."
                    : "The request body's chunked encoding was malformed or ended before its last chunk, or the body"
                            + " stalled.");
            return Optional.empty();
        }
        if (read instanceof BoundedBody.Result.Refused) {
            refuse(response, 413, "payload_too_large", "The request body is longer than " + limit + " bytes.");
            return Optional.empty();
        }
        return Optional.of(new BufferedBodyRequest(request, ((BoundedBody.Result.Read) read).bytes()));
    }

    /**
     * Answers a request refused before its body was read: {@code {"error","message"}} (both plain text without quotes
     * or backslashes), with {@code Connection: close}, since the body is left unread.
     */
    static void refuse(HttpServletResponse response, int status, String error, String message)
            throws IOException {
        response.setStatus(status);
        response.setHeader("Connection", "close");
        response.setContentType("application/json");
        response.getOutputStream().write(("{\"error\":\"" + error + "\",\"message\":\"" + message + "\"}")
                .getBytes(StandardCharsets.UTF_8));
    }
}
