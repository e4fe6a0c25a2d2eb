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
 * Content-Length, or stalls until the server's idle timeout, is 400 with -32600 and {@code Connection: close}.
 */
final class BodySizeStep implements TransportStep {

    /** A body the connection did not deliver whole; the connection is closed after the answer. */
    private static final Rejection UNREADABLE = new Rejection(400, Optional.of(Rejection.INVALID_REQUEST),
            "the request body ended before its Content-Length, or stalled", Optional.empty(),
            Map.of("Connection", "close"));

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
            // The client's body ended early or stalled past the idle timeout: its error, not the gateway's.
            return Optional.of(UNREADABLE);
        }
        if (read instanceof BoundedBody.Result.Refused refused) {
            return Optional.of(refused.rejection());
        }
        exchange.body = ((BoundedBody.Result.Read) read).bytes();
        return Optional.empty();
    }
}
