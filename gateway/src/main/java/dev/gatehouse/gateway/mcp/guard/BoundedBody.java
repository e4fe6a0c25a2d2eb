package dev.gatehouse.gateway.mcp.guard;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads a request body with a hard byte limit: a declared {@code Content-Length} over the
 * limit is refused without reading, and a chunked or under-declared body is refused as soon as the bytes read pass
 * the limit, before parsing and before any authentication work. The connection is then closed.
 */
public final class BoundedBody {

    private static final Rejection TOO_LARGE = new Rejection(413, Optional.of(Rejection.INVALID_REQUEST),
            "request body too large", Optional.empty(), Map.of("Connection", "close"));

    /** The first array for a body without a declared length, bytes. */
    private static final int UNDECLARED_BYTES = 8192;

    private BoundedBody() {
    }

    /** The outcome: the whole body, or the 413 rejection. */
    public sealed interface Result {
        record Read(byte[] bytes) implements Result {
        }

        record Refused(Rejection rejection) implements Result {
        }
    }

    /**
     * @param in            the request body stream
     * @param contentLength the declared length, if any
     * @param limit         the largest accepted body in bytes
     * @throws IOException when the client stream fails
     */
    public static Result read(InputStream in, OptionalLong contentLength, int limit) throws IOException {
        if (contentLength.isPresent() && contentLength.getAsLong() > limit) {
            return new Result.Refused(TOO_LARGE);
        }
        // Read straight into the array that is kept: a declared length sizes it exactly (the container ends the
        // stream there, so the usual body is one array, not two buffers and a copy); a stream that goes on past
        // its declared length, or has none, grows it up to one byte past the limit.
        byte[] body = new byte[(int) Math.min(limit + 1L, contentLength.orElse(UNDECLARED_BYTES))];
        int count = 0;
        while (true) {
            if (count == body.length) {
                int next = in.read();
                if (next == -1) {
                    return new Result.Read(body);
                }
                if (count + 1 > limit) {
                    return new Result.Refused(TOO_LARGE);
                }
                body = Arrays.copyOf(body, (int) Math.min(limit + 1L, Math.max(2L * body.length, UNDECLARED_BYTES)));
                body[count++] = (byte) next;
                continue;
            }
            int n = in.read(body, count, body.length - count);
            if (n == -1) {
                return new Result.Read(Arrays.copyOf(body, count));
            }
            count += n;
            if (count > limit) {
                return new Result.Refused(TOO_LARGE);
            }
        }
    }
}
