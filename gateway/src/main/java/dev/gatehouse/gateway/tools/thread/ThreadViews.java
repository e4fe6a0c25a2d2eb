package dev.gatehouse.gateway.tools.thread;

import dev.gatehouse.facade.host.HostCaller;
import dev.gatehouse.facade.host.HostProject;
import dev.gatehouse.facade.host.PreviewStatus;
import dev.gatehouse.facade.host.ThreadModes;
import dev.gatehouse.facade.host.ThreadSummary;
import dev.gatehouse.gateway.context.TrustedContext;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Agent-facing maps for host values, built field by field. {@code projectId} here is the T3 project (business
 * data the agent passes back to t3_thread_launch), never the Project Service project.
 */
final class ThreadViews {

    private ThreadViews() {
    }

    /** The acting identity for host mutations, from the trusted context only. */
    static HostCaller caller(TrustedContext context) {
        return new HostCaller(context.logicalAgentId(), context.threadId());
    }

    static Map<String, Object> summary(ThreadSummary thread) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("threadId", thread.threadId());
        out.put("title", thread.title());
        out.put("archived", thread.archived());
        putModes(out, thread.modes());
        out.put("running", thread.running());
        thread.t3ProjectId().ifPresent(id -> out.put("projectId", id));
        return out;
    }

    static Map<String, Object> project(HostProject project) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("projectId", project.t3ProjectId());
        out.put("name", project.name());
        project.defaultBranch().ifPresent(branch -> out.put("defaultBranch", branch));
        return out;
    }

    static Map<String, Object> preview(PreviewStatus preview) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("open", preview.open());
        preview.url().ifPresent(url -> out.put("url", url));
        return out;
    }

    static void putModes(Map<String, Object> out, ThreadModes modes) {
        out.put("runtimeMode", modes.runtimeMode());
        out.put("interactionMode", modes.interactionMode());
    }
}
