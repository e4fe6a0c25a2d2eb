package dev.gatehouse.gateway.mcp;

import dev.gatehouse.gateway.mcp.guard.Rejection;
import java.io.IOException;
import java.util.Optional;

/**
 * One named step of the transport pipeline at {@code /mcp} (docs/design.md, "How one call flows"). A step reads the
 * {@link Exchange}, sets what it establishes, and either lets the request go on or ends it with a rejection. Steps
 * know nothing of policy: authorization is the gate's, after the last step.
 */
interface TransportStep {

    /** The step's name, used in timings and metrics ({@code origin}, {@code body-size} …). */
    String name();

    /**
     * @return empty to go on; a rejection to answer now (its status, JSON-RPC error and headers are written as they
     *         are)
     * @throws IOException when reading the request fails
     */
    Optional<Rejection> apply(Exchange exchange) throws IOException;
}
