package dev.gatehouse.gateway.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatehouse.gateway.auth.AuthChallenge;
import dev.gatehouse.gateway.auth.Authenticated;
import dev.gatehouse.gateway.auth.AuthenticatedCaller;
import dev.gatehouse.gateway.auth.Authenticator;
import dev.gatehouse.gateway.auth.ModeLimitHeader;
import dev.gatehouse.gateway.context.TrustedContext.Modes;
import dev.gatehouse.gateway.gate.Gate;
import dev.gatehouse.gateway.gate.ToolRegistry;
import dev.gatehouse.gateway.mcp.guard.BoundedBody;
import dev.gatehouse.gateway.mcp.guard.JsonRpcGuard;
import dev.gatehouse.gateway.mcp.guard.JsonRpcMessage;
import dev.gatehouse.gateway.mcp.guard.OriginGuard;
import dev.gatehouse.gateway.mcp.guard.Rejection;
import io.modelcontextprotocol.json.McpJsonMapper;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The one servlet at {@code /mcp}. Micronaut's filters do not run on it, so it carries the whole transport side of
 * "How one call flows" (DESIGN.md), in this order, each step able to end the request:
 * <ol>
 * <li>Origin and Host allow-lists (403);</li>
 * <li>body read with the size limit (413), before parsing and before any authentication work;</li>
 * <li>authentication: session token or OAuth JWT (401 with {@code WWW-Authenticate});</li>
 * <li>{@code T3-Mode-Limit} spelling (400 {@code invalid_mode_limit});</li>
 * <li>JSON-RPC guard: batch, duplicate or case-variant names, id types, depth (400 -32600/-32700);</li>
 * <li>era: 2026-07-28 (header/body agreement, 400 -32600) or handshake era (session bound to its caller: 404 for
 * anyone else; a client-chosen id on initialize is hidden from the SDK);</li>
 * <li>tools/call of a name that is not served, or with arguments that are not an object: answered here through
 * the {@link Gate} (the SDKs would answer these without asking the policy);</li>
 * <li>everything else: delegated to that era's SDK transport, whose tool handlers call the same gate.</li>
 * </ol>
 * Identity headers ({@code X-Agent-Id}, {@code X-Forwarded-User} …) and {@code _meta} identity keys are never read.
 */
final class McpFrontServlet extends HttpServlet {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final OriginGuard origins;
    private final JsonRpcGuard jsonRpc;
    private final Authenticator authenticator;
    private final AuthChallenge challenge;
    private final Gate gate;
    private final ToolRegistry registry;
    private final HandshakeSessions sessions;
    private final McpJsonMapper json;
    private final int maxRequestBytes;
    private final HandshakeEndpoint handshake;
    private final ModernEndpoint modern;

    McpFrontServlet(McpProperties properties, Authenticator authenticator, AuthChallenge challenge, Gate gate,
            ToolRegistry registry, HandshakeSessions sessions, McpJsonMapper json, String version) {
        this.origins = new OriginGuard(properties.getAllowedOrigins(), properties.getAllowedHosts());
        this.jsonRpc = new JsonRpcGuard(properties.getMaxJsonDepth());
        this.authenticator = authenticator;
        this.challenge = challenge;
        this.gate = gate;
        this.registry = registry;
        this.sessions = sessions;
        this.json = json;
        this.maxRequestBytes = properties.getMaxRequestBytes();
        this.handshake = new HandshakeEndpoint(gate, registry, json, properties, version);
        this.modern = new ModernEndpoint(gate, registry, json, properties, version);
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
        Optional<Rejection> origin = origins.check(headers(request, "Origin"),
                Optional.ofNullable(request.getHeader("Host")));
        if (origin.isPresent()) {
            JsonRpcReplies.reject(response, origin.get());
            return;
        }
        boolean post = "POST".equals(request.getMethod());
        byte[] body = new byte[0];
        if (post) {
            BoundedBody.Result read = BoundedBody.read(request.getInputStream(), contentLength(request),
                    maxRequestBytes);
            if (read instanceof BoundedBody.Result.Refused refused) {
                JsonRpcReplies.reject(response, refused.rejection());
                return;
            }
            body = ((BoundedBody.Result.Read) read).bytes();
        }
        Authenticator.Result authentication = authenticator.authenticate(
                Optional.ofNullable(request.getHeader("Authorization")));
        if (authentication instanceof Authenticator.Result.Rejected rejected) {
            response.setHeader("WWW-Authenticate", challenge.header(rejected.failure()));
            JsonRpcReplies.reject(response, Rejection.jsonRpc(401, Rejection.INVALID_REQUEST, "unauthorized"));
            return;
        }
        Authenticated identity = ((Authenticator.Result.Accepted) authentication).who();
        Optional<Modes> modeLimit;
        try {
            modeLimit = ModeLimitHeader.parse(headers(request, ModeLimitHeader.NAME));
        } catch (ModeLimitHeader.Malformed e) {
            JsonRpcReplies.reject(response, Rejection.jsonRpc(400, Rejection.INVALID_REQUEST, "invalid_mode_limit"));
            return;
        }
        // A thread's limits are its current modes; the header narrows outside agents only (DOMAIN.md §1).
        AuthenticatedCaller caller = new AuthenticatedCaller(identity,
                identity instanceof Authenticated.OutsideAgent ? modeLimit : Optional.empty());
        request.setAttribute(CallerContext.CALLER, caller);

        Optional<JsonRpcMessage> message = Optional.empty();
        if (post) {
            JsonRpcGuard.Result checked = jsonRpc.check(body);
            if (checked instanceof JsonRpcGuard.Result.Refused refused) {
                JsonRpcReplies.reject(response, refused.rejection());
                return;
            }
            message = Optional.of(((JsonRpcGuard.Result.Passed) checked).message());
        }
        Era era = Era.of(request, message);
        if (era == Era.MODERN) {
            Optional<Rejection> mismatch = message.flatMap(m -> headerMismatch(request, m));
            if (mismatch.isPresent()) {
                JsonRpcReplies.reject(response, mismatch.get());
                return;
            }
            if (message.isPresent() && answeredHere(era, caller, message.get(), response)) {
                return;
            }
            modern.servlet().service(new BufferedRequest(request, body, Set.of()), response);
            return;
        }
        handshake(request, response, caller, message, body);
    }

    private void handshake(HttpServletRequest request, HttpServletResponse response, AuthenticatedCaller caller,
            Optional<JsonRpcMessage> message, byte[] body) throws ServletException, IOException {
        String owner = caller.identity().bindingKey();
        boolean initialize = message.flatMap(JsonRpcMessage::method).filter("initialize"::equals).isPresent();
        if (initialize) {
            // The SDK issues the id; a client-chosen one is never adopted.
            handshake.servlet().service(new BufferedRequest(request, body, Set.of(McpHeaders.SESSION_ID)),
                    new SessionIdCapture(response, sessionId -> sessions.bind(sessionId, owner)));
            return;
        }
        Optional<Object> id = message.flatMap(JsonRpcMessage::id);
        String sessionId = request.getHeader(McpHeaders.SESSION_ID);
        if (sessionId == null) {
            JsonRpcReplies.reject(response, Rejection.jsonRpc(400, Rejection.INVALID_REQUEST,
                    "Mcp-Session-Id required; send initialize first").withId(id));
            return;
        }
        if (!sessions.ownedBy(sessionId, owner)) {
            JsonRpcReplies.reject(response, Rejection.jsonRpc(404, Rejection.INVALID_REQUEST, "session not found")
                    .withId(id));
            return;
        }
        if (message.isPresent() && answeredHere(Era.HANDSHAKE, caller, message.get(), response)) {
            return;
        }
        handshake.servlet().service(new BufferedRequest(request, body, Set.of()), response);
        if ("DELETE".equals(request.getMethod())) {
            sessions.unbind(sessionId);
        }
    }

    /**
     * Answers a tools/call the SDK would answer without the policy: a name that is not served (so an unknown name
     * and a hidden one get the same decision, {@code unknown_tool}), or arguments that are not an object (a
     * {@code schema} denial). A missing or {@code null} {@code arguments} is {@code {}} and goes to the SDK.
     *
     * @return true when the response was written here
     */
    private boolean answeredHere(Era era, AuthenticatedCaller caller, JsonRpcMessage message,
            HttpServletResponse response) throws IOException {
        if (!message.isRequest() || !"tools/call".equals(message.method().get())) {
            return false;
        }
        JsonNode params = message.params().map(JsonNode.class::cast).orElse(JSON.createObjectNode());
        JsonNode name = params.get("name");
        if (name == null || !name.isTextual()) {
            JsonRpcReplies.reject(response, Rejection.jsonRpc(200, Rejection.INVALID_PARAMS,
                    "params.name must be a string").withId(message.id()));
            return true;
        }
        JsonNode arguments = params.get("arguments");
        boolean objectArguments = arguments == null || arguments.isNull() || arguments.isObject();
        if (registry.find(name.textValue()).isPresent() && objectArguments) {
            return false;
        }
        Object received = arguments == null || arguments.isNull() ? Map.of()
                : JSON.convertValue(arguments, Object.class);
        ToolReply reply = ToolReply.of(gate.call(caller, name.textValue(), received));
        Object result = era == Era.MODERN ? ModernEndpoint.result(reply) : HandshakeEndpoint.result(reply);
        JsonRpcReplies.result(response, message.id(), json.writeValueAsString(result));
        return true;
    }

    /** 2026-07-28: the {@code Mcp-Method} and {@code MCP-Protocol-Version} headers must agree with the body. */
    private static Optional<Rejection> headerMismatch(HttpServletRequest request, JsonRpcMessage message) {
        String method = request.getHeader(McpHeaders.METHOD);
        if (method != null && message.method().isPresent() && !method.equals(message.method().get())) {
            return Optional.of(Rejection.jsonRpc(400, Rejection.INVALID_REQUEST,
                    "Mcp-Method header does not match the request method").withId(message.id()));
        }
        String version = request.getHeader(McpHeaders.PROTOCOL_VERSION);
        Optional<JsonNode> metaVersion = message.meta(McpHeaders.META_PROTOCOL_VERSION);
        if (version != null && metaVersion.isPresent()
                && !(metaVersion.get().isTextual() && version.trim().equals(metaVersion.get().textValue()))) {
            return Optional.of(Rejection.jsonRpc(400, Rejection.INVALID_REQUEST,
                    "MCP-Protocol-Version header does not match _meta").withId(message.id()));
        }
        return Optional.empty();
    }

    private static List<String> headers(HttpServletRequest request, String name) {
        return Collections.list(request.getHeaders(name));
    }

    private static OptionalLong contentLength(HttpServletRequest request) {
        long length = request.getContentLengthLong();
        return length >= 0 ? OptionalLong.of(length) : OptionalLong.empty();
    }
}
