package dev.gatehouse.gateway.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatehouse.facade.host.HostFacade;
import dev.gatehouse.facade.http.DisabledFacade;
import dev.gatehouse.facade.project.ProjectFacade;
import dev.gatehouse.facade.wiki.WikiFacade;
import dev.gatehouse.gateway.tools.project.OperationGetTool;
import dev.gatehouse.gateway.tools.project.WorkGetTool;
import dev.gatehouse.gateway.tools.project.WorkListTool;
import dev.gatehouse.gateway.tools.project.WorkSubmitTool;
import dev.gatehouse.gateway.tools.thread.DelegateTaskTool;
import dev.gatehouse.gateway.tools.thread.EnvironmentPreferencesUpdateTool;
import dev.gatehouse.gateway.tools.thread.PreviewOpenTool;
import dev.gatehouse.gateway.tools.thread.PreviewStatusTool;
import dev.gatehouse.gateway.tools.thread.ProjectListTool;
import dev.gatehouse.gateway.tools.thread.ProjectUpdateTool;
import dev.gatehouse.gateway.tools.thread.ThreadInterruptTool;
import dev.gatehouse.gateway.tools.thread.ThreadLaunchTool;
import dev.gatehouse.gateway.tools.thread.ThreadListTool;
import dev.gatehouse.gateway.tools.thread.ThreadReadTool;
import dev.gatehouse.gateway.tools.thread.ThreadSendTool;
import dev.gatehouse.gateway.tools.thread.WorktreeStatusTool;
import dev.gatehouse.gateway.tools.wiki.WikiDeleteTool;
import dev.gatehouse.gateway.tools.wiki.WikiListTool;
import dev.gatehouse.gateway.tools.wiki.WikiReadTool;
import dev.gatehouse.gateway.tools.wiki.WikiSearchTool;
import dev.gatehouse.gateway.tools.wiki.WikiWriteTool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The three toolkits hold exactly one handler per access-table row, in the row's toolkit. */
class ToolCatalogueTest {

    @Test
    void handlersMatchTheAccessTableRowByRow() throws IOException {
        HostFacade host = DisabledFacade.of(HostFacade.class, "host");
        ProjectFacade projects = DisabledFacade.of(ProjectFacade.class, "project");
        WikiFacade wiki = DisabledFacade.of(WikiFacade.class, "wiki");
        List<ToolHandler> handlers = List.of(new ThreadListTool(host), new ThreadReadTool(host),
                new ProjectListTool(host), new WorktreeStatusTool(host), new PreviewStatusTool(host),
                new PreviewOpenTool(host), new DelegateTaskTool(host), new ThreadSendTool(host),
                new ThreadInterruptTool(host), new ThreadLaunchTool(host), new ProjectUpdateTool(host),
                new EnvironmentPreferencesUpdateTool(host), new WorkListTool(projects), new WorkGetTool(projects),
                new WorkSubmitTool(projects), new OperationGetTool(projects), new WikiListTool(wiki),
                new WikiReadTool(wiki), new WikiSearchTool(wiki), new WikiWriteTool(wiki), new WikiDeleteTool(wiki));

        Map<String, String> toolkitByName = new TreeMap<>();
        for (ToolHandler handler : handlers) {
            String toolkit = handler.getClass().getPackageName().substring(ToolHandler.class.getPackageName()
                    .length() + 1);
            assertEquals(null, toolkitByName.put(handler.name(), toolkit), "duplicate " + handler.name());
        }

        Map<String, String> expected = new TreeMap<>();
        new ObjectMapper().readTree(Files.readString(accessTable())).fields()
                .forEachRemaining(row -> expected.put(row.getKey(), row.getValue().get("toolkit").asText()));
        assertEquals(expected, toolkitByName);
        assertEquals(new TreeSet<>(expected.keySet()).size(), handlers.size());
    }

    private static Path accessTable() {
        Path relative = Path.of("policies/gatehouse/access_table/data.json");
        return Files.exists(relative) ? relative : Path.of("..").resolve(relative);
    }
}
