package dev.gatehouse.gateway.support;

import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolHandler;
import dev.gatehouse.gateway.tools.ToolOutcome;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One handler per access-table row that records each call it receives and answers {@code {tool: <name>}}: stands
 * in for the backends so gate tests can assert that a denied call reached no handler.
 */
public final class RecordingHandlers {

    /** Calls received, in order, as (tool, call). */
    public final List<Map.Entry<String, ToolCall>> calls = new CopyOnWriteArrayList<>();

    public List<ToolHandler> all() {
        return PolicySources.accessTable().keySet().stream().map(this::handler).toList();
    }

    private ToolHandler handler(String name) {
        return new ToolHandler() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public ToolOutcome handle(ToolCall call) {
                calls.add(Map.entry(name, call));
                return new ToolOutcome.Succeeded(Map.of("tool", name));
            }
        };
    }
}
