package dev.gatehouse.gateway.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.gateway.mcp.guard.JsonRpcMessage;
import dev.gatehouse.gateway.mcp.guard.Rejection;
import io.modelcontextprotocol.modern.server.transport.McpHeaderDecoder;
import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code era}: which protocol era the request speaks ({@link Era#of}), and whether its revision is served.
 *
 * <p>A 2026-07-28 request must carry {@code Mcp-Method}, {@code MCP-Protocol-Version} and, for
 * {@code tools/call}, {@code prompts/get} and {@code resources/read}, {@code Mcp-Name}, each exactly once and equal
 * to the body (method, {@code _meta} revision, {@code params.name}/{@code params.uri}; values compared exactly after
 * trimming surrounding whitespace, names case-insensitively), else 400 with -32020 (header mismatch). Its
 * {@code _meta} must name the revision and the client's capabilities (400 -32602). These checks are made here
 * because {@code tools/call} never reaches the SDK, whose transport makes the same ones for everything else.
 *
 * <p>A JSON-RPC response sent by the client is refused in both eras (400 -32600): the gateway never sends a request
 * for one to answer.
 *
 * <p>A handshake-era {@code initialize} must carry {@code params} with a string {@code protocolVersion} of at most
 * {@value #MAX_REVISION_CHARS} characters (400 -32602); one it does not serve is answered with the revision it does.
 *
 * <p>A revision that is not served — in {@code _meta}, or in the header of a handshake-era request other than
 * {@code initialize} (which negotiates in its body) — gets 400 with -32022 and
 * {@code data: {supported: [every served revision], requested}}.
 */
final class EraStep implements TransportStep {

    /** The longest {@code protocolVersion} an initialize may name; revisions are dates ({@code 2025-11-25}). */
    static final int MAX_REVISION_CHARS = 64;

    @Override
    public String name() {
        return "era";
    }

    @Override
    public Optional<Rejection> apply(Exchange exchange) {
        exchange.era = Era.of(exchange.request, exchange.message);
        if (exchange.message.filter(message -> message.method().isEmpty()).isPresent()) {
            // The gateway never sends a client a request (no sampling, elicitation, roots or ping), so a response
            // answers nothing; the handshake SDK would fail on it with an internal error.
            return Optional.of(Rejection.jsonRpc(400, Rejection.INVALID_REQUEST,
                    "the gateway sent no request for this response to answer").withId(exchange.id()));
        }
        return exchange.era == Era.MODERN ? modern(exchange) : handshake(exchange);
    }

    private static Optional<Rejection> handshake(Exchange exchange) {
        if (exchange.method().filter("initialize"::equals).isPresent()) {
            // The SDK fails with an internal error on an initialize it cannot read; this is the caller's error.
            // One longer than any revision could be is no revision: the SDK would log it whole on every such
            // initialize (a 60,000-character one made a 60,311-character log line).
            boolean readable = exchange.message.flatMap(JsonRpcMessage::params)
                    .filter(params -> params.path("protocolVersion").isTextual()
                            && params.path("protocolVersion").textValue().length() <= MAX_REVISION_CHARS)
                    .isPresent();
            return readable ? Optional.empty() : Optional.of(Rejection.jsonRpc(400, Rejection.INVALID_PARAMS,
                    "initialize needs params {protocolVersion, capabilities, clientInfo}, protocolVersion a string"
                            + " of at most " + MAX_REVISION_CHARS + " characters").withId(exchange.id()));
        }
        // Two values of a header would leave which one counts a guess, as in the 2026-07-28 era.
        for (String header : List.of(McpHeaders.PROTOCOL_VERSION, McpHeaders.SESSION_ID)) {
            List<String> values = values(exchange.request, header);
            if (values.size() > 1) {
                return Optional.of(Rejection.jsonRpc(400, Rejection.INVALID_REQUEST, count(header, values))
                        .withId(exchange.id()));
            }
        }
        String version = exchange.request.getHeader(McpHeaders.PROTOCOL_VERSION);
        if (version == null || McpHeaders.HANDSHAKE_VERSIONS.contains(version.trim())) {
            return Optional.empty();
        }
        return Optional.of(unsupported(version.trim()).withId(exchange.id()));
    }

    private static Optional<Rejection> modern(Exchange exchange) {
        Optional<JsonRpcMessage> request = exchange.message.filter(JsonRpcMessage::isRequest);
        if (request.isEmpty()) {
            return Optional.empty();
        }
        JsonRpcMessage message = request.get();
        Optional<String> mismatch = headerMismatch(exchange.request, message);
        if (mismatch.isPresent()) {
            return Optional.of(Rejection.jsonRpc(400, Rejection.HEADER_MISMATCH, mismatch.get())
                    .withId(message.id()));
        }
        Optional<JsonNode> version = message.meta(McpHeaders.META_PROTOCOL_VERSION);
        if (version.isEmpty() || message.meta(McpHeaders.META_CLIENT_CAPABILITIES).isEmpty()) {
            return Optional.of(Rejection.jsonRpc(400, Rejection.INVALID_PARAMS,
                    "params._meta must carry io.modelcontextprotocol/protocolVersion and "
                            + "io.modelcontextprotocol/clientCapabilities").withId(message.id()));
        }
        if (!McpHeaders.MODERN_VERSIONS.contains(version.get().asText())) {
            return Optional.of(unsupported(version.get().asText()).withId(message.id()));
        }
        return Optional.empty();
    }

    /** Why the standard headers disagree with the body, if they do. */
    private static Optional<String> headerMismatch(HttpServletRequest http, JsonRpcMessage message) {
        String method = message.method().get();
        List<String> methods = values(http, McpHeaders.METHOD);
        if (methods.size() != 1) {
            return Optional.of(count(McpHeaders.METHOD, methods));
        }
        if (!methods.get(0).equals(method)) {
            return Optional.of("Mcp-Method header does not match the request method");
        }
        List<String> versions = values(http, McpHeaders.PROTOCOL_VERSION);
        if (versions.size() != 1) {
            return Optional.of(count(McpHeaders.PROTOCOL_VERSION, versions));
        }
        Optional<JsonNode> meta = message.meta(McpHeaders.META_PROTOCOL_VERSION);
        if (meta.isPresent() && !(meta.get().isTextual() && versions.get(0).equals(meta.get().textValue()))) {
            return Optional.of("MCP-Protocol-Version header does not match _meta");
        }
        String member = switch (method) {
            case "tools/call", "prompts/get" -> "name";
            case "resources/read" -> "uri";
            default -> null;
        };
        JsonNode named = member == null ? null : message.params().map(p -> p.get(member)).orElse(null);
        if (named == null || !named.isTextual()) {
            return Optional.empty();
        }
        List<String> names = values(http, McpHeaders.NAME);
        if (names.size() != 1) {
            return Optional.of(count(McpHeaders.NAME, names));
        }
        return named.textValue().equals(McpHeaderDecoder.decodeValue(names.get(0))) ? Optional.empty()
                : Optional.of("Mcp-Name header does not match params." + member);
    }

    /** Every value of a header, trimmed (surrounding whitespace is not part of a field value, RFC 9110 §5.5). */
    private static List<String> values(HttpServletRequest http, String name) {
        List<String> values = new ArrayList<>(1);
        for (Enumeration<String> each = http.getHeaders(name); each.hasMoreElements(); ) {
            values.add(each.nextElement().trim());
        }
        return values;
    }

    private static String count(String name, List<String> values) {
        return values.isEmpty() ? "missing required header " + name : name + " header has more than one value";
    }

    private static Rejection unsupported(String requested) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("supported", McpHeaders.SERVED_VERSIONS);
        data.put("requested", requested);
        return Rejection.jsonRpc(400, Rejection.UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version")
                .withData(data);
    }
}
