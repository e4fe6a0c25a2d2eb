package dev.gatehouse.gateway.tools.thread;

import dev.gatehouse.facade.host.HostFacade;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolHandler;
import dev.gatehouse.gateway.tools.ToolOutcome;
import jakarta.inject.Singleton;

/** {@code preview_status}: whether the calling thread's browser preview is open, and its URL. */
@Singleton
public class PreviewStatusTool implements ToolHandler {

    private final HostFacade host;

    public PreviewStatusTool(HostFacade host) {
        this.host = host;
    }

    @Override
    public String name() {
        return "preview_status";
    }

    /** @return {@code {open, url?}}; rejected {@code thread_required} without a calling thread */
    @Override
    public ToolOutcome handle(ToolCall call) {
        return call.context().threadId()
                .map(thread -> Recovery.of(host.previewStatus(thread), ThreadViews::preview))
                .orElseGet(CallerThread::missing);
    }
}
