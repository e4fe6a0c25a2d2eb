package dev.gatehouse.gateway.tools.thread;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.http.IdempotencyKey;
import dev.gatehouse.facade.host.Delegation;
import dev.gatehouse.facade.host.EnvironmentPreferences;
import dev.gatehouse.facade.host.HostCaller;
import dev.gatehouse.facade.host.HostFacade;
import dev.gatehouse.facade.host.HostProject;
import dev.gatehouse.facade.host.InterruptReceipt;
import dev.gatehouse.facade.host.LaunchRequest;
import dev.gatehouse.facade.host.LaunchedThread;
import dev.gatehouse.facade.host.MessageReceipt;
import dev.gatehouse.facade.host.PreviewStatus;
import dev.gatehouse.facade.host.ProjectChanges;
import dev.gatehouse.facade.host.ThreadDetail;
import dev.gatehouse.facade.host.ThreadMessage;
import dev.gatehouse.facade.host.ThreadModes;
import dev.gatehouse.facade.host.ThreadState;
import dev.gatehouse.facade.host.ThreadSummary;
import dev.gatehouse.facade.host.WorktreeStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A host facade that records every call as {@code [operation, arguments…]} and answers with fixed values. */
final class RecordingHost implements HostFacade {

    static final ThreadSummary T1 = new ThreadSummary("t1", "Demo", false, new ThreadModes("full-access", "default"),
            true, Optional.of("demo"));

    final List<List<Object>> calls = new ArrayList<>();
    /** The key of each mutation, in call order. */
    final List<IdempotencyKey> keys = new ArrayList<>();

    @Override
    public FacadeResult<ThreadState> threadState(String threadId) {
        return answer(new ThreadState(threadId, false, "auto", "plan", Optional.empty(), Optional.empty(),
                Optional.empty()), "threadState", threadId);
    }

    @Override
    public FacadeResult<List<ThreadSummary>> listThreads(Optional<String> t3ProjectId) {
        return answer(List.of(T1), "listThreads", t3ProjectId);
    }

    @Override
    public FacadeResult<ThreadDetail> readThread(String threadId) {
        return answer(new ThreadDetail(T1, List.of(new ThreadMessage("user", "hi", "2026-01-01T00:00:00Z"))),
                "readThread", threadId);
    }

    @Override
    public FacadeResult<List<HostProject>> listProjects() {
        return answer(List.of(new HostProject("demo", "Demo", Optional.empty())), "listProjects");
    }

    @Override
    public FacadeResult<WorktreeStatus> worktreeStatus(String threadId) {
        return answer(new WorktreeStatus("main", true, List.of(), 0, 2), "worktreeStatus", threadId);
    }

    @Override
    public FacadeResult<PreviewStatus> previewStatus(String threadId) {
        return answer(new PreviewStatus(false, Optional.empty()), "previewStatus", threadId);
    }

    @Override
    public FacadeResult<PreviewStatus> openPreview(HostCaller caller, String threadId, String url,
            IdempotencyKey key) {
        keys.add(key);
        return answer(new PreviewStatus(true, Optional.of(url)), "openPreview", caller, threadId, url);
    }

    @Override
    public FacadeResult<Delegation> delegate(HostCaller caller, String threadId, String task, ThreadModes modes,
            IdempotencyKey key) {
        keys.add(key);
        return answer(new Delegation("d-1", modes, "started"), "delegate", caller, threadId, task, modes);
    }

    @Override
    public FacadeResult<LaunchedThread> launch(HostCaller caller, LaunchRequest request, IdempotencyKey key) {
        keys.add(key);
        return answer(new LaunchedThread("t-9", "run-9", request.modes()), "launch", caller, request);
    }

    @Override
    public FacadeResult<MessageReceipt> send(HostCaller caller, String threadId, String message,
            IdempotencyKey key) {
        keys.add(key);
        return answer(new MessageReceipt(threadId, "m-1"), "send", caller, threadId, message);
    }

    @Override
    public FacadeResult<InterruptReceipt> interrupt(HostCaller caller, String threadId, IdempotencyKey key) {
        keys.add(key);
        return answer(new InterruptReceipt(threadId, true), "interrupt", caller, threadId);
    }

    @Override
    public FacadeResult<HostProject> updateProject(HostCaller caller, String t3ProjectId, ProjectChanges changes,
            IdempotencyKey key) {
        keys.add(key);
        return answer(new HostProject(t3ProjectId, changes.name().orElse("Demo"), changes.defaultBranch()),
                "updateProject", caller, t3ProjectId, changes);
    }

    @Override
    public FacadeResult<EnvironmentPreferences> updatePreferences(HostCaller caller,
            EnvironmentPreferences changes, IdempotencyKey key) {
        keys.add(key);
        return answer(changes, "updatePreferences", caller, changes);
    }

    private <T> FacadeResult<T> answer(T value, Object... call) {
        calls.add(List.of(call));
        return new FacadeResult.Ok<>(value);
    }
}
