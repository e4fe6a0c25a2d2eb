package dev.gatehouse.gateway.tools.thread;

import dev.gatehouse.facade.host.HostFacade;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolHandler;
import dev.gatehouse.gateway.tools.ToolOutcome;
import jakarta.inject.Singleton;
import java.util.Map;

/** {@code t3_project_list}: the T3 projects of the environment. */
@Singleton
public class ProjectListTool implements ToolHandler {

    private final HostFacade host;

    public ProjectListTool(HostFacade host) {
        this.host = host;
    }

    @Override
    public String name() {
        return "t3_project_list";
    }

    /** @return {@code {projects: [{projectId, name, defaultBranch?}]}}, without workspace references */
    @Override
    public ToolOutcome handle(ToolCall call) {
        return Recovery.of(host.listProjects(),
                projects -> Map.of("projects", projects.stream().map(ThreadViews::project).toList()));
    }
}
