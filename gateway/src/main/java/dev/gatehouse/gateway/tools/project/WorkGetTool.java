package dev.gatehouse.gateway.tools.project;

import dev.gatehouse.facade.project.ProjectFacade;

import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolHandler;
import dev.gatehouse.gateway.tools.ToolOutcome;
import jakarta.inject.Singleton;

/** {@code project_work_get}: one work run and its current revisions. */
@Singleton
public class WorkGetTool implements ToolHandler {

    private final ProjectFacade projects;

    public WorkGetTool(ProjectFacade projects) {
        this.projects = projects;
    }

    @Override
    public String name() {
        return "project_work_get";
    }

    /** @return {@code {runId, title, status, runRevision, assignmentRevision}} */
    @Override
    public ToolOutcome handle(ToolCall call) {
        String runId = (String) call.arguments().get("runId");
        return Binding.with(call.context(), binding -> Recovery.of(projects.getWork(binding, runId), Binding::run));
    }
}
