package dev.gatehouse.gateway.support;

import dev.gatehouse.gateway.gate.ServedTool;
import dev.gatehouse.gateway.gate.ToolTable;
import dev.gatehouse.facts.ClosedSchemaArgumentCheck;
import dev.gatehouse.gateway.tools.ToolHandler;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The tool table a revision built from the repository serves ({@link PolicySources}), its schemas compiled by the
 * real closed-schema check, each row joined with a {@link RecordingHandlers} handler.
 */
public final class ServedTools {

    private ServedTools() {
    }

    /** The whole table. */
    public static ToolTable table() {
        Map<String, ToolHandler> handlers = new LinkedHashMap<>();
        new RecordingHandlers().all().forEach(handler -> handlers.put(handler.name(), handler));
        return ((ToolTable.Joined) ToolTable.join(PolicySources.contents(), handlers,
                new ClosedSchemaArgumentCheck())).table();
    }

    /** One tool of it. */
    public static ServedTool of(String tool) {
        return table().find(tool).orElseThrow();
    }
}
