package dev.gatehouse.gateway.tools.project;

import dev.gatehouse.facade.project.ProjectFacade;

import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolHandler;
import dev.gatehouse.gateway.tools.ToolOutcome;
import jakarta.inject.Singleton;
import java.util.Map;

/** {@code project_work_list}: the work runs assigned to this agent in its bound project, with current revisions. */
@Singleton
public class WorkListTool implements ToolHandler {

    private final ProjectFacade projects;

    public WorkListTool(ProjectFacade projects) {
        this.projects = projects;
    }

    @Override
    public String name() {
        return "project_work_list";
    }

    /** @return {@code {runs: [{runId, title, status, runRevision, assignmentRevision}]}} */
    @Override
    public ToolOutcome handle(ToolCall call) {
        return Binding.with(call.context(), binding -> Recovery.of(projects.listWork(binding),
                runs -> Map.of("runs", runs.stream().map(Binding::run).toList())));
    }
}
