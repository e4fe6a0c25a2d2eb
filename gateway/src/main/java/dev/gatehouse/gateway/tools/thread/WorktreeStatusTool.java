package dev.gatehouse.gateway.tools.thread;

import dev.gatehouse.facade.host.HostFacade;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolHandler;
import dev.gatehouse.gateway.tools.ToolOutcome;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code t3_worktree_status}: the git worktree of the calling thread. */
@Singleton
public class WorktreeStatusTool implements ToolHandler {

    private final HostFacade host;

    public WorktreeStatusTool(HostFacade host) {
        this.host = host;
    }

    @Override
    public String name() {
        return "t3_worktree_status";
    }

    /**
     * @return {@code {branch, clean, changedFiles, ahead, behind}}; rejected {@code thread_required} when the
     *         caller has no thread (the policy lets only threads call it)
     */
    @Override
    public ToolOutcome handle(ToolCall call) {
        return call.context().threadId().map(thread -> Recovery.of(host.worktreeStatus(thread), status -> {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("branch", status.branch());
            out.put("clean", status.clean());
            out.put("changedFiles", status.changedFiles());
            out.put("ahead", status.ahead());
            out.put("behind", status.behind());
            return out;
        })).orElseGet(CallerThread::missing);
    }
}
