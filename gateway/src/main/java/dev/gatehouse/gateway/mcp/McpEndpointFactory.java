package dev.gatehouse.gateway.mcp;

import dev.gatehouse.gateway.auth.AuthChallenge;
import dev.gatehouse.gateway.auth.Authenticator;
import dev.gatehouse.gateway.gate.Gate;
import dev.gatehouse.gateway.lifecycle.CallTracker;
import dev.gatehouse.gateway.telemetry.Tracing;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Value;
import io.micronaut.servlet.api.annotation.ServletBean;
import io.modelcontextprotocol.json.McpJsonDefaults;
import jakarta.inject.Singleton;
import jakarta.servlet.http.HttpServlet;

/**
 * Mounts the front servlet on {@code /mcp} with the servlet container, beside Micronaut's own dispatcher on
 * {@code /*}: Micronaut's servlet dispatcher does not route to a second servlet by itself, so the front servlet is
 * registered as a {@link ServletBean} (docs/design.md, "Dependency pins"). Async support is needed for the SDKs' SSE
 * streams.
 */
@Factory
public class McpEndpointFactory {

    /** The {@code /mcp} servlet: guard, authentication, era, gate, SDK transports. */
    @Singleton
    @ServletBean(name = "mcp", urlPatterns = "/mcp", asyncSupported = true)
    public HttpServlet mcpServlet(McpProperties properties, Authenticator authenticator, AuthChallenge challenge,
            Gate gate, HandshakeSessions sessions,
            MeterRegistry meters, Tracing tracing, CallTracker calls,
            @Value("${gatehouse.version:0.1.0}") String version) {
        return new McpFrontServlet(properties, authenticator, challenge, gate, sessions,
                McpJsonDefaults.getMapper(), version, meters, tracing, calls);
    }
}
