package dev.gatehouse.gateway.tools.project;

import dev.gatehouse.facade.project.Operation;
import dev.gatehouse.facade.project.ProjectBinding;
import dev.gatehouse.facade.project.WorkRun;
import dev.gatehouse.gateway.context.TrustedContext;
import dev.gatehouse.gateway.tools.ToolOutcome;
import dev.gatehouse.gateway.tools.ToolOutcomes;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The Project Service identity of a call, from the trusted context only (docs/domain.md §6): the logical agent and
 * the bound project. Whether the agent has a bound project is decided by the policy before any handler runs
 * ({@code project_not_bound}, docs/domain.md §4) from the same settings read as this context. An allowed call that
 * still finds none (only a policy revision that does not ask for the binding can allow one) fails closed here with
 * {@code binding_missing}, and no service is called.
 */
final class Binding {

    private Binding() {
    }

    static ToolOutcome with(TrustedContext context, Function<ProjectBinding, ToolOutcome> call) {
        Optional<String> project = context.projectServiceProjectId();
        if (project.isEmpty()) {
            return ToolOutcomes.refused("binding_missing", "the allowed call found no bound Project Service project");
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
