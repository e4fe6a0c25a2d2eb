package dev.gatehouse.gateway.mcp;

import dev.gatehouse.gateway.mcp.guard.BoundedBody;
import dev.gatehouse.gateway.mcp.guard.Rejection;
import java.io.IOException;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@code body-size}: reads a {@code POST} body whole within the limit (413 otherwise, also for chunked bodies and a
 * Content-Length that lies), before parsing and before any authentication work.
 */
final class BodySizeStep implements TransportStep {

    private final int maxRequestBytes;

    BodySizeStep(int maxRequestBytes) {
        this.maxRequestBytes = maxRequestBytes;
    }

    @Override
    public String name() {
        return "body-size";
    }

    @Override
    public Optional<Rejection> apply(Exchange exchange) throws IOException {
        if (!exchange.post()) {
            return Optional.empty();
        }
        long length = exchange.request.getContentLengthLong();
        BoundedBody.Result read = BoundedBody.read(exchange.request.getInputStream(),
                length >= 0 ? OptionalLong.of(length) : OptionalLong.empty(), maxRequestBytes);
        if (read instanceof BoundedBody.Result.Refused refused) {
            return Optional.of(refused.rejection());
        }
        exchange.body = ((BoundedBody.Result.Read) read).bytes();
        return Optional.empty();
    }
}
