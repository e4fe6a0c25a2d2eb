package dev.gatehouse.gateway.tools.thread;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gatehouse.facade.error.ServiceError;
import dev.gatehouse.facade.http.IdempotencyKey;
import dev.gatehouse.facade.host.EnvironmentPreferences;
import dev.gatehouse.facade.host.HostCaller;
import dev.gatehouse.facade.host.LaunchRequest;
import dev.gatehouse.facade.host.ProjectChanges;
import dev.gatehouse.facade.host.ThreadModes;
import dev.gatehouse.gateway.context.TrustedContext;
import dev.gatehouse.gateway.policy.api.Obligations;
import dev.gatehouse.gateway.tools.Contexts;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolOutcome;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Thread and environment handlers: resolved modes, caller defaults, identity from the context only. */
class ThreadToolsTest {

    /** The decision that allowed each call here; its mutation is sent under the key derived from it. */
    static final UUID DECISION = UUID.fromString("0b7e8f3c-2d4a-4c1e-9f6b-5a3d2c1b0e9f");

    private static final TrustedContext A1_T1 = Contexts.thread("a1", "t1");
    private static final HostCaller CALLER = new HostCaller("a1", Optional.of("t1"));
    private static final Obligations AUTO_PLAN = new Obligations(
            Map.of("runtimeMode", "auto", "interactionMode", "plan"), Map.of(), Optional.empty());

    private final RecordingHost host = new RecordingHost();

    @Test
    void launchUsesTheResolvedModesNotTheRequestedOnes() {
        ToolOutcome outcome = new ThreadLaunchTool(host).handle(new ToolCall(Map.of("projectId", "demo",
                "prompt", "go", "runtimeMode", "full-access", "interactionMode", "inherit"), AUTO_PLAN, A1_T1,
                DECISION));

        assertEquals(List.of(List.of("launch", CALLER, new LaunchRequest("demo", "go", Optional.empty(),
                new ThreadModes("auto", "plan")))), host.calls);
        assertEquals(new ToolOutcome.Succeeded(Map.of("threadId", "t-9", "runId", "run-9", "runtimeMode", "auto",
                "interactionMode", "plan")), outcome);
    }

    @Test
    void delegateUsesTheCallersThreadAndTheResolvedModes() {
        new DelegateTaskTool(host).handle(new ToolCall(Map.of("task", "sub", "runtimeMode", "inherit"), AUTO_PLAN,
                A1_T1, DECISION));

        assertEquals(List.of(List.of("delegate", CALLER, "t1", "sub", new ThreadModes("auto", "plan"))), host.calls);
    }

    @Test
    void modeRowsWithoutResolvedModesFailClosedWithoutACall() {
        ToolOutcome launch = new ThreadLaunchTool(host).handle(new ToolCall(Map.of("projectId", "demo", "prompt",
                "go"), Obligations.NONE, A1_T1, DECISION));
        ToolOutcome delegate = new DelegateTaskTool(host).handle(new ToolCall(Map.of("task", "x"), Obligations.NONE,
                A1_T1, DECISION));

        ToolOutcome expected = new ToolOutcome.Failed(new ServiceError.Rejected(
                "the decision carried no resolved modes", "obligation_missing"), Optional.empty());
        assertEquals(List.of(expected, expected), List.of(launch, delegate));
        assertEquals(List.of(), host.calls);
    }

    @Test
    void sendAndInterruptDefaultToTheCallingThread() {
        new ThreadSendTool(host).handle(call(Map.of("message", "hello"), A1_T1));
        new ThreadSendTool(host).handle(call(Map.of("threadId", "t2", "message", "hi"), A1_T1));
        ToolOutcome interrupted = new ThreadInterruptTool(host).handle(call(Map.of(), A1_T1));

        assertEquals(List.of(List.of("send", CALLER, "t1", "hello"), List.of("send", CALLER, "t2", "hi"),
                List.of("interrupt", CALLER, "t1")), host.calls);
        assertEquals(new ToolOutcome.Succeeded(Map.of("threadId", "t1", "interrupted", true)), interrupted);
    }

    @Test
    void callerBoundToolsWithoutAThreadAreRefusedWithoutACall() {
        TrustedContext outside = Contexts.outside("a1");

        List<ToolOutcome> outcomes = List.of(
                new WorktreeStatusTool(host).handle(call(Map.of(), outside)),
                new PreviewStatusTool(host).handle(call(Map.of(), outside)),
                new ThreadInterruptTool(host).handle(call(Map.of(), outside)));

        ToolOutcome refused = new ToolOutcome.Failed(new ServiceError.Rejected(
                "this tool acts on the calling thread, and there is none", "thread_required"), Optional.empty());
        assertEquals(List.of(refused, refused, refused), outcomes);
        assertEquals(List.of(), host.calls);
    }

    @Test
    void readsProjectFieldByField() {
        ToolOutcome list = new ThreadListTool(host).handle(call(Map.of("projectId", "demo"), A1_T1));
        ToolOutcome read = new ThreadReadTool(host).handle(call(Map.of("threadId", "t1"), A1_T1));
        ToolOutcome worktree = new WorktreeStatusTool(host).handle(call(Map.of(), A1_T1));
        ToolOutcome projects = new ProjectListTool(host).handle(call(Map.of(), A1_T1));

        Map<String, Object> t1 = Map.of("threadId", "t1", "title", "Demo", "archived", false, "runtimeMode",
                "full-access", "interactionMode", "default", "running", true, "projectId", "demo");
        assertEquals(new ToolOutcome.Succeeded(Map.of("threads", List.of(t1))), list);
        Map<String, Object> detail = new java.util.HashMap<>(t1);
        detail.put("messages", List.of(Map.of("role", "user", "text", "hi", "sentAt", "2026-01-01T00:00:00Z")));
        assertEquals(new ToolOutcome.Succeeded(detail), read);
        assertEquals(new ToolOutcome.Succeeded(Map.of("branch", "main", "clean", true, "changedFiles", List.of(),
                "ahead", 0, "behind", 2)), worktree);
        assertEquals(new ToolOutcome.Succeeded(Map.of("projects", List.of(Map.of("projectId", "demo", "name",
                "Demo")))), projects);
        assertEquals(List.of("listThreads", Optional.of("demo")), host.calls.get(0));
        assertEquals(List.of("worktreeStatus", "t1"), host.calls.get(2));
    }

    @Test
    void previewAndEnvironmentChangesPassTheirArguments() {
        ToolOutcome opened = new PreviewOpenTool(host).handle(call(Map.of("url", "https://x.test/"), A1_T1));
        new ProjectUpdateTool(host).handle(call(Map.of("projectId", "demo", "name", "New"), A1_T1));
        ToolOutcome preferences = new EnvironmentPreferencesUpdateTool(host).handle(call(Map.of("preferences",
                Map.of("defaultInteractionMode", "plan", "autoArchiveDays", 30)), A1_T1));

        assertEquals(new ToolOutcome.Succeeded(Map.of("open", true, "url", "https://x.test/")), opened);
        assertEquals(List.of("updateProject", CALLER, "demo", new ProjectChanges(Optional.of("New"),
                Optional.empty())), host.calls.get(1));
        assertEquals(List.of("updatePreferences", CALLER, new EnvironmentPreferences(Optional.empty(),
                Optional.of("plan"), Optional.of(30))), host.calls.get(2));
        assertEquals(new ToolOutcome.Succeeded(Map.of("preferences", Map.of("defaultInteractionMode", "plan",
                "autoArchiveDays", 30))), preferences);
    }

    @Test
    void everyMutationIsSentUnderTheKeyOfItsDecision() {
        new ThreadLaunchTool(host).handle(new ToolCall(Map.of("projectId", "demo", "prompt", "go"), AUTO_PLAN, A1_T1,
                DECISION));
        new DelegateTaskTool(host).handle(new ToolCall(Map.of("task", "sub"), AUTO_PLAN, A1_T1, DECISION));
        new ThreadSendTool(host).handle(call(Map.of("message", "hello"), A1_T1));
        new ThreadInterruptTool(host).handle(call(Map.of(), A1_T1));
        new PreviewOpenTool(host).handle(call(Map.of("url", "https://x.test/"), A1_T1));
        new ProjectUpdateTool(host).handle(call(Map.of("projectId", "demo", "name", "New"), A1_T1));
        new EnvironmentPreferencesUpdateTool(host).handle(call(Map.of("preferences",
                Map.of("autoArchiveDays", 30)), A1_T1));

        assertEquals(7, host.calls.size());
        assertEquals(Collections.nCopies(7, IdempotencyKey.forDecision(DECISION)), host.keys);
    }

    private static ToolCall call(Map<String, Object> arguments, TrustedContext context) {
        return new ToolCall(arguments, Obligations.NONE, context, DECISION);
    }
}
