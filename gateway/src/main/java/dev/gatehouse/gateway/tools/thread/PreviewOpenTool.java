package dev.gatehouse.gateway.tools.thread;

import dev.gatehouse.facade.host.HostFacade;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolHandler;
import dev.gatehouse.gateway.tools.ToolOutcome;
import jakarta.inject.Singleton;

/** {@code preview_open}: opens the calling thread's browser preview at {@code url}. */
@Singleton
public class PreviewOpenTool implements ToolHandler {

    private final HostFacade host;

    public PreviewOpenTool(HostFacade host) {
        this.host = host;
    }

    @Override
    public String name() {
        return "preview_open";
    }

    /** @return {@code {open, url?}}; rejected {@code thread_required} without a calling thread */
    @Override
    public ToolOutcome handle(ToolCall call) {
        return call.context().threadId()
                .map(thread -> Recovery.of(host.openPreview(ThreadViews.caller(call.context()), thread,
                        Args.text(call.arguments(), "url"), call.idempotencyKey()), ThreadViews::preview))
                .orElseGet(CallerThread::missing);
    }
}
