package dev.gatehouse.gateway.tools.thread;

import dev.gatehouse.facade.host.HostFacade;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolHandler;
import dev.gatehouse.gateway.tools.ToolOutcome;
import jakarta.inject.Singleton;
import java.util.Map;

/** {@code t3_thread_read}: one thread with its latest messages. */
@Singleton
public class ThreadReadTool implements ToolHandler {

    private final HostFacade host;

    public ThreadReadTool(HostFacade host) {
        this.host = host;
    }

    @Override
    public String name() {
        return "t3_thread_read";
    }

    /** @return the summary fields of t3_thread_list plus {@code messages: [{role, text, sentAt}]} */
    @Override
    public ToolOutcome handle(ToolCall call) {
        return Recovery.of(host.readThread(Args.text(call.arguments(), "threadId")), detail -> {
            Map<String, Object> out = ThreadViews.summary(detail.summary());
            out.put("messages", detail.messages().stream().map(message -> Map.<String, Object>of(
                    "role", message.role(), "text", message.text(), "sentAt", message.sentAt())).toList());
            return out;
        });
    }
}
