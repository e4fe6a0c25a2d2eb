package dev.gatehouse.gateway.tools.project;

import dev.gatehouse.facade.project.ProjectFacade;
import dev.gatehouse.facade.project.WorkSubmission;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolHandler;
import dev.gatehouse.gateway.tools.ToolOutcome;
import jakarta.inject.Singleton;
import java.util.Map;

/**
 * {@code project_work_submit}: submits the result of a work run; never retried (an uncertain outcome names the
 * operation to look up).
 */
@Singleton
public class WorkSubmitTool implements ToolHandler {

    private final ProjectFacade projects;

    public WorkSubmitTool(ProjectFacade projects) {
        this.projects = projects;
    }

    @Override
    public String name() {
        return "project_work_submit";
    }

    /** @return {@code {operationId, status, runId, reason?}} */
    @Override
    @SuppressWarnings("unchecked")
    public ToolOutcome handle(ToolCall call) {
        Map<String, Object> args = call.arguments();
        WorkSubmission submission = new WorkSubmission((String) args.get("runId"), (String) args.get("runRevision"),
                (String) args.get("assignmentRevision"), (Map<String, Object>) args.get("result"));
        return Binding.with(call.context(), binding -> Recovery.of(projects.submitWork(binding, submission,
                call.idempotencyKey()),
                Binding::operation));
    }
}
