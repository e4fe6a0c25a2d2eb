package dev.gatehouse.gateway.tools.thread;

import dev.gatehouse.facade.host.HostFacade;
import dev.gatehouse.facade.host.ProjectChanges;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolHandler;
import dev.gatehouse.gateway.tools.ToolOutcome;
import jakarta.inject.Singleton;

/** {@code t3_project_update}: renames a T3 project or changes its default branch. */
@Singleton
public class ProjectUpdateTool implements ToolHandler {

    private final HostFacade host;

    public ProjectUpdateTool(HostFacade host) {
        this.host = host;
    }

    @Override
    public String name() {
        return "t3_project_update";
    }

    /** @return the project after the change, {@code {projectId, name, defaultBranch?}} */
    @Override
    public ToolOutcome handle(ToolCall call) {
        ProjectChanges changes = new ProjectChanges(Args.optionalText(call.arguments(), "name"),
                Args.optionalText(call.arguments(), "defaultBranch"));
        return Recovery.of(host.updateProject(ThreadViews.caller(call.context()),
                Args.text(call.arguments(), "projectId"), changes, call.idempotencyKey()), ThreadViews::project);
    }
}
