package dev.gatehouse.gateway.tools.thread;

import dev.gatehouse.facade.host.HostFacade;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolHandler;
import dev.gatehouse.gateway.tools.ToolOutcome;
import jakarta.inject.Singleton;
import java.util.Map;

/** {@code t3_thread_list}: the environment's threads, of one T3 project when {@code projectId} is given. */
@Singleton
public class ThreadListTool implements ToolHandler {

    private final HostFacade host;

    public ThreadListTool(HostFacade host) {
        this.host = host;
    }

    @Override
    public String name() {
        return "t3_thread_list";
    }

    /** @return {@code {threads: [{threadId, title, archived, runtimeMode, interactionMode, running, projectId?}]}} */
    @Override
    public ToolOutcome handle(ToolCall call) {
        return Recovery.of(host.listThreads(Args.optionalText(call.arguments(), "projectId")),
                threads -> Map.of("threads", threads.stream().map(ThreadViews::summary).toList()));
    }
}
