package dev.gatehouse.gateway.tools.project;

import dev.gatehouse.facade.error.ServiceError;
import dev.gatehouse.facade.project.Operation;
import dev.gatehouse.facade.project.ProjectBinding;
import dev.gatehouse.facade.project.WorkRun;
import dev.gatehouse.gateway.context.TrustedContext;
import dev.gatehouse.gateway.tools.ToolOutcome;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The Project Service identity of a call, from the trusted context only (docs/domain.md §6): the logical agent and
 * the bound project. A session bound to no project gets {@code unavailable} (integration not enabled for it).
 */
final class Binding {

    private Binding() {
    }

    static ToolOutcome with(TrustedContext context, Function<ProjectBinding, ToolOutcome> call) {
        Optional<String> project = context.projectServiceProjectId();
        if (project.isEmpty()) {
            return new ToolOutcome.Failed(new ServiceError.Unavailable(
                    "no Project Service project is bound to this session"), Optional.empty());
        }
        return call.apply(new ProjectBinding(context.logicalAgentId(), project.get()));
    }

    /** A run as the agent sees it: no service-side identity. */
    static Map<String, Object> run(WorkRun run) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("runId", run.runId());
        out.put("title", run.title());
        out.put("status", run.status());
        out.put("runRevision", run.runRevision());
        out.put("assignmentRevision", run.assignmentRevision());
        return out;
    }

    /** An operation as the agent sees it. */
    static Map<String, Object> operation(Operation operation) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("operationId", operation.operationId());
        out.put("status", operation.status());
        out.put("runId", operation.runId());
        operation.reason().ifPresent(reason -> out.put("reason", reason));
        return out;
    }
}
