package dev.gatehouse.gateway.mcp;

import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.util.function.Consumer;

/**
 * Sees the {@code Mcp-Session-Id} the handshake-era SDK sets on an initialize response, so the front servlet can
 * bind it to the caller before the client receives it.
 */
final class SessionIdCapture extends HttpServletResponseWrapper {

    private final Consumer<String> onSessionId;

    SessionIdCapture(HttpServletResponse response, Consumer<String> onSessionId) {
        super(response);
        this.onSessionId = onSessionId;
    }

    @Override
    public void setHeader(String name, String value) {
        observe(name, value);
        super.setHeader(name, value);
    }

    @Override
    public void addHeader(String name, String value) {
        observe(name, value);
        super.addHeader(name, value);
    }

    private void observe(String name, String value) {
        if (McpHeaders.SESSION_ID.equalsIgnoreCase(name) && value != null) {
            onSessionId.accept(value);
        }
    }
}
