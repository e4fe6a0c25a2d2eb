package dev.gatehouse.gateway.mcp.guard;

import com.fasterxml.jackson.core.JsonFactory;
import dev.gatehouse.gateway.Utf8;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.facts.ArgumentKeys;
import java.io.IOException;
import java.util.Optional;

/**
 * The JSON-RPC part of the transport guard, run on the buffered body before
 * the gate or the SDK see it, so that every layer after it agrees on what the message is:
 * <ul>
 * <li>a body that is not UTF-8 by RFC 3629 (also overlong forms such as {@code C0 AF} for {@code /}, and encoded
 * surrogates), which Jackson would read leniently: HTTP 400, -32700;</li>
 * <li>invalid JSON or trailing content: HTTP 400, -32700;</li>
 * <li>a batch (top-level array; MCP has had no batching since 2025-06-18) or any non-object: HTTP 400, -32600;</li>
 * <li>a member name repeated in one object, also when the repeats differ only in case: HTTP 400, -32600;</li>
 * <li>at the two protocol levels (the message object, and the object that is its {@code params} member), a member
 * name that reads as one of {@link ProtocolMembers#NAMES} ({@link ProtocolMembers#isLookAlike}:
 * {@link ArgumentKeys#fold}, the fold argument keys are compared by, with its other readings of each character) but
 * is not spelled exactly so
 * (e.g. {@code "p\u0430rams"} with a Cyrillic a, {@code "params\u200b"}, fullwidth {@code "ＰＡＲＡＭＳ"},
 * {@code " params"}, {@code "par_ams"}, or {@code "meta"} beside or instead of {@code "_meta"}), or two member
 * names that fold alike: HTTP 400, -32600. A look-alike is refused also when the real member is absent, so it is
 * never silently ignored by a layer that reads only the exact name. Objects below those levels (a tool's
 * {@code arguments}, {@code _meta}'s contents, results) keep only the case-insensitive duplicate rule;</li>
 * <li>nesting deeper than the limit: HTTP 400, -32600;</li>
 * <li>{@code jsonrpc} other than {@code "2.0"}, a non-string method, non-object params, an id that is not a string
 * or an integer ({@code null}, fractions, booleans, objects, arrays), or a request method without an id that is not
 * a notification: HTTP 400, -32600, answered under the request's id when that is a string or an integer, else
 * {@code "id": null}.</li>
 * </ul>
 */
public final class JsonRpcGuard {

    private final JsonFactory factory;
    private final ObjectMapper mapper;
    private final int maxDepth;

    /** @param maxDepth deepest accepted nesting of arrays and objects */
    public JsonRpcGuard(int maxDepth) {
        this.maxDepth = maxDepth;
        // Jackson's own limit backs up the shape check (ShapeCheckingParser) with one level of slack. Member names
        // are not interned: a body of 80,000 distinct names spent half its parse in String.intern (a caller's names
        // would also fill the JVM's string table); the protocol's own names are still shared through the symbol table.
        this.factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(maxDepth + 1).build())
                .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
                .build();
        // Numbers are read exactly (a fraction as BigDecimal, as written): business data passes through the gateway
        // unchanged, and 1e400 is not turned into Infinity on its way to a service.
        this.mapper = new ObjectMapper(factory).enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .configure(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES, false);
    }

    /** The outcome: a message that passed, or the rejection to send. */
    public sealed interface Result {
        record Passed(JsonRpcMessage message) implements Result {
        }

        record Refused(Rejection rejection) implements Result {
        }
    }

    /** Checks and parses one request body, in one read: the shape rules are checked on each token as it is read. */
    public Result check(byte[] body) {
        if (!Utf8.strict(body)) {
            return refused(Rejection.PARSE_ERROR, "the body is not valid UTF-8");
        }
        // NUL is valid UTF-8 but never JSON text (outside a string it is no token, inside one it must be escaped),
        // and Jackson takes NULs among the first bytes for UTF-16 or UTF-32 and reads the body in that encoding.
        for (byte b : body) {
            if (b == 0) {
                return refused(Rejection.PARSE_ERROR, "the body holds a NUL byte: not JSON text in UTF-8");
            }
        }
        try (JsonParser parser = new ShapeCheckingParser(factory.createParser(body), maxDepth)) {
            JsonNode tree = mapper.readTree(parser);
            if (tree == null || tree.isMissingNode()) {
                return refused(Rejection.PARSE_ERROR, "empty body");
            }
            if (tree.isArray()) {
                return refused(Rejection.INVALID_REQUEST, "batch requests are not supported");
            }
            if (!tree.isObject()) {
                return refused(Rejection.INVALID_REQUEST, "a JSON-RPC message must be an object");
            }
            return message((ObjectNode) tree);
        } catch (ShapeCheckingParser.Refused e) {
            return new Result.Refused(e.rejection);
        } catch (StreamConstraintsException e) {
            return refused(Rejection.INVALID_REQUEST, exceeded(e));
        } catch (IOException e) {
            return refused(Rejection.PARSE_ERROR, "parse error");
        }
    }

    /**
     * Which of Jackson's read limits the body broke (nesting, and Jackson's defaults for the length of one string,
     * member name or number), named from its message, which is the only place Jackson says which one it was.
     */
    static String exceeded(StreamConstraintsException e) {
        String what = String.valueOf(e.getOriginalMessage());
        if (what.contains("nesting depth")) {
            return "request nested too deeply";
        }
        if (what.startsWith("Name length")) {
            return "a member name in the request is too long";
        }
        if (what.startsWith("String value length")) {
            return "a string in the request is too long";
        }
        if (what.startsWith("Number value length")) {
            return "a number in the request has too many digits";
        }
        return "the request exceeds a JSON size limit";
    }

    private Result message(ObjectNode tree) {
        // The id is read first, so a request refused for its shape is answered under its own id (JSON-RPC 2.0 §5:
        // null only when the id cannot be read), and a client can tell which of its requests it was.
        Optional<Object> id = Optional.empty();
        if (tree.has("id")) {
            JsonNode node = tree.get("id");
            if (node.isTextual()) {
                id = Optional.of(node.textValue());
            } else if (node.isIntegralNumber() && node.canConvertToLong()) {
                id = Optional.of(node.longValue());
            } else {
                return refused(Rejection.INVALID_REQUEST, node.isIntegralNumber()
                        ? "an integer id must be from -2^63 to 2^63-1 (a longer one can be sent as a string)"
                        : "id must be a string or an integer");
            }
        }
        JsonNode version = tree.get("jsonrpc");
        if (version == null || !version.isTextual() || !"2.0".equals(version.textValue())) {
            return refused(Rejection.INVALID_REQUEST, "jsonrpc must be \"2.0\"", id);
        }
        Optional<String> method = Optional.empty();
        if (tree.has("method")) {
            if (!tree.get("method").isTextual()) {
                return refused(Rejection.INVALID_REQUEST, "method must be a string", id);
            }
            method = Optional.of(tree.get("method").textValue());
            if (id.isEmpty() && !method.get().startsWith("notifications/")) {
                return refused(Rejection.INVALID_REQUEST, "a request needs an id");
            }
        } else if (id.isEmpty() || !(tree.has("result") || tree.has("error"))) {
            return refused(Rejection.INVALID_REQUEST, "not a JSON-RPC request, notification or response", id);
        }
        Optional<ObjectNode> params = Optional.empty();
        if (tree.has("params")) {
            if (!tree.get("params").isObject()) {
                return refused(Rejection.INVALID_REQUEST, "params must be an object", id);
            }
            params = Optional.of((ObjectNode) tree.get("params"));
        }
        return new Result.Passed(new JsonRpcMessage(tree, id, method, params));
    }

    private static Result refused(int code, String message) {
        return new Result.Refused(Rejection.jsonRpc(400, code, message));
    }

    private static Result refused(int code, String message, Optional<Object> id) {
        return new Result.Refused(Rejection.jsonRpc(400, code, message).withId(id));
    }
}
