package dev.gatehouse.gateway.tools.thread;

import dev.gatehouse.facade.host.HostFacade;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolHandler;
import dev.gatehouse.gateway.tools.ToolOutcome;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.Optional;

/** {@code t3_thread_send}: sends a message to a thread; an omitted {@code threadId} means the calling thread. */
@Singleton
public class ThreadSendTool implements ToolHandler {

    private final HostFacade host;

    public ThreadSendTool(HostFacade host) {
        this.host = host;
    }

    @Override
    public String name() {
        return "t3_thread_send";
    }

    /** @return {@code {threadId, messageId}}; rejected {@code thread_required} with no target at all */
    @Override
    public ToolOutcome handle(ToolCall call) {
        Optional<String> target = Args.optionalText(call.arguments(), "threadId").or(() -> call.context().threadId());
        return target.map(thread -> Recovery.of(host.send(ThreadViews.caller(call.context()), thread,
                Args.text(call.arguments(), "message"), call.idempotencyKey()), receipt -> Map.<String, Object>of(
                        "threadId", receipt.threadId(), "messageId", receipt.messageId())))
                .orElseGet(CallerThread::missing);
    }
}
