package dev.gatehouse.gateway.tools.thread;

import dev.gatehouse.facade.host.HostFacade;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolHandler;
import dev.gatehouse.gateway.tools.ToolOutcome;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code delegate_task}: hands a task to a sub-agent of the calling thread at the decision's resolved modes
 * (obligation), never at the raw {@code runtimeMode}/{@code interactionMode} arguments.
 */
@Singleton
public class DelegateTaskTool implements ToolHandler {

    private final HostFacade host;

    public DelegateTaskTool(HostFacade host) {
        this.host = host;
    }

    @Override
    public String name() {
        return "delegate_task";
    }

    /**
     * @return {@code {delegationId, runtimeMode, interactionMode, status}}; rejected {@code thread_required}
     *         without a calling thread, {@code obligation_missing} without resolved modes
     */
    @Override
    public ToolOutcome handle(ToolCall call) {
        return ResolvedModes.with(call, modes -> call.context().threadId().map(thread -> Recovery.of(
                host.delegate(ThreadViews.caller(call.context()), thread, Args.text(call.arguments(), "task"), modes,
                        call.idempotencyKey()),
                delegation -> {
                    Map<String, Object> out = new LinkedHashMap<>();
                    out.put("delegationId", delegation.delegationId());
                    ThreadViews.putModes(out, delegation.modes());
                    out.put("status", delegation.status());
                    return out;
                })).orElseGet(CallerThread::missing));
    }
}
