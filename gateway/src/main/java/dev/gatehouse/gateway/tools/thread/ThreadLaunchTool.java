package dev.gatehouse.gateway.tools.thread;

import dev.gatehouse.facade.host.HostFacade;
import dev.gatehouse.facade.host.LaunchRequest;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolHandler;
import dev.gatehouse.gateway.tools.ToolOutcome;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code t3_thread_launch}: starts a thread in a T3 project at the decision's resolved modes (obligation), never at
 * the raw mode arguments.
 */
@Singleton
public class ThreadLaunchTool implements ToolHandler {

    private final HostFacade host;

    public ThreadLaunchTool(HostFacade host) {
        this.host = host;
    }

    @Override
    public String name() {
        return "t3_thread_launch";
    }

    /** @return {@code {threadId, runId, runtimeMode, interactionMode}}; {@code obligation_missing} without modes */
    @Override
    public ToolOutcome handle(ToolCall call) {
        return ResolvedModes.with(call, modes -> {
            LaunchRequest request = new LaunchRequest(Args.text(call.arguments(), "projectId"),
                    Args.text(call.arguments(), "prompt"), Args.optionalText(call.arguments(), "title"), modes);
            return Recovery.of(host.launch(ThreadViews.caller(call.context()), request, call.idempotencyKey()),
                    launched -> {
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("threadId", launched.threadId());
                out.put("runId", launched.runId());
                ThreadViews.putModes(out, launched.modes());
                return out;
            });
        });
    }
}
