package dev.gatehouse.local.seed;

import dev.gatehouse.local.host.HostState;
import dev.gatehouse.local.host.HostStore;
import dev.gatehouse.local.project.ProjectState;
import dev.gatehouse.local.project.ProjectStore;
import dev.gatehouse.local.storage.DataDirectory;
import dev.gatehouse.local.wiki.WikiPath;
import dev.gatehouse.local.wiki.WikiStore;
import io.micronaut.context.annotation.Context;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Seeds demo data into a data directory created by this start (never into an existing one, so a restart keeps
 * what was written): agents {@code a1} and {@code a2}; host project {@code demo}; threads {@code t1} (a1,
 * full-access/default, live run), {@code t2} (a2, approval-required/plan, live run), {@code t3} (a1, run ended);
 * Project Service project {@code ps-demo} with runs for a1 and a2; wiki pages {@code agents/a1/page.md} and
 * {@code agents/a2/secret.md} (containing {@code A2-SECRET}).
 */
@Context
public class DemoSeed {

    /** Marker text in a2's private page; it must never reach another agent. */
    public static final String A2_SECRET = "A2-SECRET";

    public DemoSeed(DataDirectory data, HostStore host, ProjectStore project, WikiStore wiki) {
        if (!data.fresh()) {
            return;
        }
        host.seed(List.of(hostProject()), List.of(
                thread("t1", "a1", "full-access", "default", Optional.of("run-t1"), "pi-1"),
                thread("t2", "a2", "approval-required", "plan", Optional.of("run-t2"), "pi-2"),
                thread("t3", "a1", "full-access", "default", Optional.empty(), "pi-1")));
        project.seed("ps-demo", List.of(
                run("run-101", "a1", "Write the changelog", "open", 4, 2),
                run("run-102", "a1", "Review the onboarding guide", "open", 1, 1),
                run("run-103", "a1", "Retired task", "closed", 7, 3),
                run("run-201", "a2", "Triage incoming bugs", "open", 2, 1)));
        wiki.write(WikiPath.parse("agents/a1/page.md"), "# a1\n\nNotes of agent a1.\n", Optional.empty());
        wiki.write(WikiPath.parse("agents/a2/page.md"), "# a2\n\nNotes of agent a2.\n", Optional.empty());
        wiki.write(WikiPath.parse("agents/a2/secret.md"), "# Private\n\n" + A2_SECRET + "\n", Optional.empty());
    }

    private static HostState.Project hostProject() {
        HostState.Project project = new HostState.Project();
        project.projectId = "demo";
        project.name = "Demo";
        project.defaultBranch = "main";
        project.workspaceRef = "ws-demo";
        return project;
    }

    private static HostState.Thread thread(String id, String agentId, String runtimeMode, String interactionMode,
            Optional<String> activeRun, String providerInstance) {
        HostState.Thread thread = new HostState.Thread();
        thread.threadId = id;
        thread.title = "Demo thread " + id + " of " + agentId;
        thread.runtimeMode = runtimeMode;
        thread.interactionMode = interactionMode;
        thread.activeRunId = activeRun.orElse(null);
        thread.providerInstanceId = providerInstance;
        thread.projectId = "demo";
        thread.agentId = agentId;
        thread.worktree.branch = id + "-work";
        thread.worktree.workspaceRef = "ws-" + id;
        HostState.Message message = new HostState.Message();
        message.messageId = "m-" + id;
        message.role = "user";
        message.text = "Start the demo for " + agentId + ".";
        message.sentAt = Instant.parse("2026-01-01T00:00:00Z").toString();
        thread.messages.add(message);
        return thread;
    }

    private static ProjectState.Run run(String runId, String agentId, String title, String status, long runRevision,
            long assignmentRevision) {
        ProjectState.Run run = new ProjectState.Run();
        run.projectId = "ps-demo";
        run.agentId = agentId;
        run.runId = runId;
        run.title = title;
        run.status = status;
        run.runRevision = runRevision;
        run.assignmentRevision = assignmentRevision;
        run.executorRef = "exec-" + agentId;
        run.workspaceRef = "ws-" + runId;
        return run;
    }
}
