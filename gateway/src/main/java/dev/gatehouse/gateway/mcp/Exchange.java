package dev.gatehouse.gateway.mcp;

import dev.gatehouse.gateway.auth.Authenticated;
import dev.gatehouse.gateway.context.AuthenticatedCaller;
import dev.gatehouse.gateway.gate.ServedTool;
import dev.gatehouse.gateway.mcp.guard.JsonRpcMessage;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import java.util.Optional;

/**
 * One request on its way through the {@link TransportPipeline}: what the steps so far established. Each step reads
 * what earlier steps set and sets its own part; nothing here is read from the request twice.
 */
final class Exchange {

    final HttpServletRequest request;
    final HttpServletResponse response;
    /** The request body, read whole within the size limit ({@code POST} only; empty otherwise). */
    byte[] body = new byte[0];
    /** The authenticated principal, from the authentication step on. */
    Authenticated identity;
    /** The caller the gate sees, from the mode-limit step on. */
    AuthenticatedCaller caller;
    /** The JSON-RPC message of a {@code POST}, from the guard step on. */
    Optional<JsonRpcMessage> message = Optional.empty();
    /** The protocol era, from the era step on. */
    Era era;
    /** The tools the gate decided a tools/list lists, once {@link ToolListRoute} decided it. */
    Optional<List<ServedTool>> listed = Optional.empty();

    Exchange(HttpServletRequest request, HttpServletResponse response) {
        this.request = request;
        this.response = response;
    }

    boolean post() {
        return "POST".equals(request.getMethod());
    }

    /** The id of the request, for rejections that may echo it. */
    Optional<Object> id() {
        return message.flatMap(JsonRpcMessage::id);
    }

    /** What an SDK transport's handlers may know of this request (from the mode-limit step on). */
    SdkContext sdkContext() {
        return new SdkContext(caller, listed);
    }

    /** The JSON-RPC method, when the body is a request or notification. */
    Optional<String> method() {
        return message.flatMap(JsonRpcMessage::method);
    }
}
