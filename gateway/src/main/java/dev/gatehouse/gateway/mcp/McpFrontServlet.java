package dev.gatehouse.gateway.mcp;

import dev.gatehouse.gateway.auth.AuthChallenge;
import dev.gatehouse.gateway.auth.Authenticator;
import dev.gatehouse.gateway.gate.Gate;
import dev.gatehouse.gateway.lifecycle.CallTracker;
import dev.gatehouse.gateway.telemetry.Tracing;
import dev.gatehouse.gateway.mcp.guard.JsonRpcGuard;
import dev.gatehouse.gateway.mcp.guard.JsonRpcMessage;
import dev.gatehouse.gateway.mcp.guard.OriginGuard;
import dev.gatehouse.gateway.mcp.guard.Rejection;
import dev.gatehouse.gateway.store.StoreUnavailableException;
import io.micrometer.core.instrument.MeterRegistry;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The one servlet at {@code /mcp}. Micronaut's filters do not run on it, so it carries the whole transport side of
 * "How one call flows" (docs/design.md): the {@link TransportPipeline} of named steps, in this order, each able to
 * end the request — {@code origin}, {@code method}, {@code body-size}, {@code authentication}, {@code mode-limit}, {@code json-rpc},
 * {@code era}, {@code session} — and then one dispatch: every {@code tools/call} goes to the gate through
 * {@link ToolCallRoute}; everything else (initialize, {@code server/discover}, ping, tools/list, notifications, GET,
 * DELETE) goes to that era's SDK transport with the request's {@link SdkContext}; a {@code tools/list} is decided
 * first by the same gate through {@link ToolListRoute}, and the SDK writes the decided list it finds there.
 *
 * <p>Every request is counted in flight ({@link CallTracker}) and traced as a server span {@code POST /mcp} (any
 * HTTP method) continuing the client's W3C {@code traceparent}. Once the gateway drains for shutdown, a new request
 * gets 503 with {@code Retry-After} and JSON-RPC error -32603 before any step runs: retryable, nothing was done.
 */
final class McpFrontServlet extends HttpServlet {

    private static final Logger LOG = LoggerFactory.getLogger(McpFrontServlet.class);
    /** The answer while draining: retryable, nothing was read or done. */
    private static final Rejection DRAINING = new Rejection(503, Optional.of(Rejection.INTERNAL_ERROR),
            "unavailable: the gateway is shutting down; retry", Optional.empty(),
            Map.of("Retry-After", Rejection.RETRY_AFTER_SECONDS));

    private final TransportPipeline pipeline;
    private final ToolCallRoute toolCalls;
    private final ToolListRoute toolLists;
    private final HandshakeSessions sessions;
    private final SessionLimits sessionLimits;
    private final HandshakeEndpoint handshake;
    private final ModernEndpoint modern;
    private final Tracing tracing;
    private final CallTracker calls;

    McpFrontServlet(McpProperties properties, Authenticator authenticator, AuthChallenge challenge, Gate gate,
            HandshakeSessions sessions, McpJsonMapper json, String version,
            MeterRegistry meters, Tracing tracing, CallTracker calls) {
        this.tracing = tracing;
        this.calls = calls;
        this.pipeline = new TransportPipeline(List.of(
                new OriginStep(new OriginGuard(properties.getAllowedOrigins(), properties.getAllowedHosts())),
                new MethodStep(),
                new BodySizeStep(properties.getMaxRequestBytes()),
                new AuthenticationStep(authenticator, challenge),
                new ModeLimitStep(),
                new JsonRpcStep(new JsonRpcGuard(properties.getMaxJsonDepth())),
                new EraStep(),
                new SessionOwnershipStep(sessions)), meters, tracing);
        this.toolCalls = new ToolCallRoute(gate, json);
        this.sessions = sessions;
        this.sessionLimits = new SessionLimits(sessions, properties);
        this.handshake = new HandshakeEndpoint(json, properties, version);
        this.toolLists = new ToolListRoute(gate, handshake);
        this.modern = new ModernEndpoint(json, properties, version);
    }

    @Override
    public void init(ServletConfig config) throws ServletException {
        super.init(config);
        handshake.servlet().init(config);
        modern.servlet().init(config);
    }

    @Override
    public void destroy() {
        handshake.close();
        modern.close();
        super.destroy();
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        if (!calls.enter()) {
            JsonRpcReplies.reject(response, DRAINING);
            return;
        }
        Span span = tracing.startServer(request.getMethod() + " /mcp", request::getHeader);
        // Log lines of this request carry its trace (JSON logs: the MDC members trace_id and span_id), when it has one:
        // with spans not exported, only a request that came with the caller's traceparent does.
        if (span.getSpanContext().isValid()) {
            MDC.put("trace_id", span.getSpanContext().getTraceId());
            MDC.put("span_id", span.getSpanContext().getSpanId());
        }
        try (Scope ignored = span.makeCurrent()) {
            serve(request, response);
        } finally {
            LOG.debug("{} /mcp answered {}", request.getMethod(), response.getStatus());
            MDC.remove("trace_id");
            MDC.remove("span_id");
            span.setAttribute("http.response.status_code", response.getStatus());
            span.end();
            calls.exit();
        }
    }

    private void serve(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        Exchange exchange = new Exchange(request, response);
        Optional<Rejection> rejection = pipeline.run(exchange);
        if (rejection.isPresent()) {
            JsonRpcReplies.reject(response, rejection.get());
            return;
        }
        exchange.method().ifPresent(method -> Span.current().setAttribute("rpc.method", method));
        Optional<JsonRpcMessage> listing = exchange.message.filter(ToolListRoute::handles);
        if (listing.isPresent()) {
            Optional<Rejection> undecided = toolLists.decide(exchange, listing.get());
            if (undecided.isPresent()) {
                JsonRpcReplies.reject(response, undecided.get());
                return;
            }
        }
        Optional<JsonRpcMessage> message = exchange.message.filter(ToolCallRoute::handles);
        if (message.isPresent()) {
            toolCalls.answer(exchange, message.get());
        } else if (exchange.era == Era.MODERN) {
            sdk(exchange, reply -> modern.servlet().service(new BufferedRequest(request, exchange.body, Set.of(),
                    exchange.sdkContext()), reply));
        } else {
            sdk(exchange, reply -> handshake(exchange, reply));
        }
    }

    /** A request handed to an SDK transport, which answers on {@code reply}. */
    private interface SdkCall {
        void run(SdkErrorReply reply) throws ServletException, IOException;
    }

    /**
     * Runs an SDK transport. An error it answers itself reaches the client as a JSON-RPC error of the same status
     * with a fixed message ({@link SdkErrorReply}); an exception it throws as a JSON-RPC internal error (500,
     * -32603). Never the SDK's serialised exception or the container's error page with a stack trace. Nothing was
     * decided: the gate's routes never run inside an SDK.
     */
    private static void sdk(Exchange exchange, SdkCall call) throws ServletException, IOException {
        // The 2026-07-28 transport is stateless: it serves POST alone (no stream to GET, no session to DELETE).
        SdkErrorReply reply = new SdkErrorReply(exchange.response, exchange.era == Era.MODERN ? "POST"
                : MethodStep.ALLOW);
        try {
            call.run(reply);
        } catch (RuntimeException e) {
            LOG.error("MCP SDK failed on {}", exchange.method().orElse(exchange.request.getMethod()), e);
            if (!exchange.response.isCommitted()) {
                exchange.response.reset();
                JsonRpcReplies.reject(exchange.response, new Rejection(500, Optional.of(Rejection.INTERNAL_ERROR),
                        "internal error", exchange.id(), Map.of()));
            }
            return;
        }
        reply.finish(exchange.id());
    }

    private void handshake(Exchange exchange, SdkErrorReply reply) throws ServletException, IOException {
        HttpServletRequest request = exchange.request;
        if (exchange.method().filter("initialize"::equals).isPresent()) {
            // The SDK issues the id; a client-chosen one is never adopted.
            String owner = exchange.identity.bindingKey();
            Optional<Rejection> refused = sessionLimits.admit(exchange.body.length, owner);
            if (refused.isPresent()) {
                JsonRpcReplies.reject(exchange.response, refused.get().withId(exchange.id()));
                return;
            }
            handshake.servlet().service(new BufferedRequest(request, exchange.body, Set.of(McpHeaders.SESSION_ID),
                    exchange.sdkContext()),
                    new SessionIdCapture(reply, sessionId -> bind(sessionId, owner)));
            return;
        }
        handshake.servlet().service(new BufferedRequest(request, exchange.body, Set.of(), exchange.sdkContext()),
                reply);
        if ("DELETE".equals(request.getMethod())) {
            try {
                sessions.unbind(request.getHeader(McpHeaders.SESSION_ID));
            } catch (StoreUnavailableException e) {
                LOG.warn("handshake session binding not removed ({}); it expires when idle", e.getMessage());
            }
        }
    }

    /**
     * Records the binding of a new handshake session. When the store does not answer, the session stays unbound: its
     * next request gets 404 and the client initializes again, so nothing is served unbound.
     */
    private void bind(String sessionId, String owner) {
        try {
            sessions.bind(sessionId, owner);
        } catch (StoreUnavailableException e) {
            LOG.warn("handshake session not bound ({}); its client will have to initialize again", e.getMessage());
        }
    }
}
