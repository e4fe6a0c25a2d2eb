package dev.gatehouse.gateway.tools.thread;

import dev.gatehouse.facade.host.HostFacade;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolHandler;
import dev.gatehouse.gateway.tools.ToolOutcome;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.Optional;

/** {@code t3_thread_interrupt}: interrupts a thread's active run; an omitted {@code threadId} means the caller's. */
@Singleton
public class ThreadInterruptTool implements ToolHandler {

    private final HostFacade host;

    public ThreadInterruptTool(HostFacade host) {
        this.host = host;
    }

    @Override
    public String name() {
        return "t3_thread_interrupt";
    }

    /** @return {@code {threadId, interrupted}}; rejected {@code thread_required} with no target at all */
    @Override
    public ToolOutcome handle(ToolCall call) {
        Optional<String> target = Args.optionalText(call.arguments(), "threadId").or(() -> call.context().threadId());
        return target.map(thread -> Recovery.of(host.interrupt(ThreadViews.caller(call.context()), thread,
                call.idempotencyKey()),
                receipt -> Map.<String, Object>of("threadId", receipt.threadId(),
                        "interrupted", receipt.interrupted())))
                .orElseGet(CallerThread::missing);
    }
}
