package dev.gatehouse.gateway.mcp.guard;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
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
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(limit, 8192));
        byte[] buffer = new byte[8192];
        long total = 0;
        int n;
        while ((n = in.read(buffer)) != -1) {
            total += n;
            if (total > limit) {
                return new Result.Refused(TOO_LARGE);
            }
            out.write(buffer, 0, n);
        }
        return new Result.Read(out.toByteArray());
    }
}
