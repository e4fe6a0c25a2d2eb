package dev.gatehouse.gateway.tools.project;

import dev.gatehouse.facade.project.ProjectFacade;

import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolHandler;
import dev.gatehouse.gateway.tools.ToolOutcome;
import jakarta.inject.Singleton;

/** {@code project_operation_get}: the state of a submitted operation. */
@Singleton
public class OperationGetTool implements ToolHandler {

    private final ProjectFacade projects;

    public OperationGetTool(ProjectFacade projects) {
        this.projects = projects;
    }

    @Override
    public String name() {
        return "project_operation_get";
    }

    /** @return {@code {operationId, status, runId, reason?}} with status {@code pending|committed|rejected} */
    @Override
    public ToolOutcome handle(ToolCall call) {
        String operationId = (String) call.arguments().get("operationId");
        return Binding.with(call.context(), binding -> Recovery.of(projects.getOperation(binding, operationId),
                Binding::operation));
    }
}
