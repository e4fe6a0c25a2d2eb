package dev.gatehouse.gateway.tools;

/**
 * One tool's handler: validated arguments plus obligations, to a facade call, to a projected result. A handler
 * never decides authorization (the gate asked the PDP before calling it); it only makes checks no policy can,
 * such as reading the service's own answers. Exactly one handler per access-table row: the registry fails
 * start-up on a row without a handler, a handler without a row, or a duplicate name.
 */
public interface ToolHandler {

    /** The tool name; equal to one key of policies/gatehouse/access_table/data.json. */
    String name();

    /**
     * Runs one allowed call. Must not throw for service failures: they come back as {@link ToolOutcome.Failed}.
     *
     * @param call arguments (already schema-valid), obligations and the caller's trusted context
     * @return the projected result, or the service failure as a value
     */
    ToolOutcome handle(ToolCall call);
}
