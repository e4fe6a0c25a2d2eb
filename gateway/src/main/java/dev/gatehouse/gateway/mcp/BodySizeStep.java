package dev.gatehouse.gateway.mcp;

import dev.gatehouse.gateway.mcp.guard.BoundedBody;
import dev.gatehouse.gateway.mcp.guard.Rejection;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@code body-size}: reads a {@code POST} body whole within the limit (413 otherwise, also for chunked bodies and a
 * Content-Length that lies), before parsing and before any authentication work. A body that ends before its
 * Content-Length, a chunked one whose framing is malformed or that ends before its last chunk, or one that stalls
 * until the server's idle timeout, is 400 with -32600 and {@code Connection: close}, its message saying which of
 * the two framings failed (a chunked body was said to have ended before a Content-Length it never had).
 */
final class BodySizeStep implements TransportStep {

    /** A body of a declared length the connection did not deliver whole; the connection is closed after it. */
    private static final Rejection ENDED_EARLY = unreadable(
            "the request body ended before its Content-Length, or stalled");
    /** A chunked body the connection did not deliver whole or well-formed. */
    private static final Rejection CHUNKS_UNREADABLE = unreadable(
            "the request body's chunked encoding was malformed or ended before its last chunk, or the body stalled");

    private final int maxRequestBytes;

    BodySizeStep(int maxRequestBytes) {
        this.maxRequestBytes = maxRequestBytes;
    }

    @Override
    public String name() {
        return "body-size";
    }

    @Override
    public Optional<Rejection> apply(Exchange exchange) {
        if (!exchange.post()) {
            return Optional.empty();
        }
        long length = exchange.request.getContentLengthLong();
        BoundedBody.Result read;
        try {
            read = BoundedBody.read(exchange.request.getInputStream(),
                    length >= 0 ? OptionalLong.of(length) : OptionalLong.empty(), maxRequestBytes);
        } catch (IOException e) {
            // The client's body ended early, was malformed or stalled past the idle timeout: its error, not ours.
            return Optional.of(length >= 0 ? ENDED_EARLY : CHUNKS_UNREADABLE);
        }
        if (read instanceof BoundedBody.Result.Refused refused) {
            return Optional.of(refused.rejection());
        }
        exchange.body = ((BoundedBody.Result.Read) read).bytes();
        return Optional.empty();
    }

    private static Rejection unreadable(String message) {
        return new Rejection(400, Optional.of(Rejection.INVALID_REQUEST), message, Optional.empty(),
                Map.of("Connection", "close"));
    }
}
