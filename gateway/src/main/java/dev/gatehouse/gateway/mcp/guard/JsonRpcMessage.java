package dev.gatehouse.gateway.mcp.guard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;
import java.util.Optional;

/**
 * One JSON-RPC message that passed the guard: a single object, {@code "jsonrpc": "2.0"}, unique member names (also
 * when compared without case), no look-alike of a protocol member name at the top level or in params (see
 * {@link JsonRpcGuard}), an id that is a string or an integer, and params that are an object.
 *
 * @param tree   the whole message
 * @param id     the request id ({@code String} or {@code Long}); empty for notifications
 * @param method the method; empty for a response sent by the client
 * @param params the params object; empty when absent
 */
public record JsonRpcMessage(ObjectNode tree, Optional<Object> id, Optional<String> method,
        Optional<ObjectNode> params) {

    public JsonRpcMessage {
        Objects.requireNonNull(tree, "tree");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(params, "params");
    }

    /** True for a request (method and id). */
    public boolean isRequest() {
        return method.isPresent() && id.isPresent();
    }

    /** {@code params._meta[key]} when present. */
    public Optional<JsonNode> meta(String key) {
        return params.map(p -> p.get("_meta")).filter(JsonNode::isObject).map(m -> m.get(key));
    }
}
