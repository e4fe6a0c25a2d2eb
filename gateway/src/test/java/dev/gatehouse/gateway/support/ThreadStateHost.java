package dev.gatehouse.gateway.support;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.http.IdempotencyKey;
import dev.gatehouse.facade.error.ServiceError;
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
import dev.gatehouse.facade.host.ThreadState;
import dev.gatehouse.facade.host.ThreadSummary;
import dev.gatehouse.facade.host.WorktreeStatus;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A test double of the {@link HostFacade} interface that answers only {@link #threadState} (what the PIP reads),
 * from a table the test controls, seeded like local-services: t1 (a1, full-access/default, live on p-1), t2 (a2,
 * approval-required/plan, live on p-2), t3 (a1, run ended). Unknown ids fail as {@code not_found}; ids in
 * {@link #failing} fail as {@code unavailable}. The mutations are not part of the PIP and throw.
 */
public final class ThreadStateHost implements HostFacade {

    public final Map<String, ThreadState> threads = new ConcurrentHashMap<>(Map.of(
            "t1", new ThreadState("t1", false, "full-access", "default", Optional.of("run-1"), Optional.of("p-1"),
                    Optional.of("proj-1")),
            "t2", new ThreadState("t2", false, "approval-required", "plan", Optional.of("run-2"), Optional.of("p-2"),
                    Optional.of("proj-1")),
            "t3", new ThreadState("t3", false, "full-access", "default", Optional.empty(), Optional.of("p-1"),
                    Optional.of("proj-1"))));
    public final java.util.Set<String> failing = ConcurrentHashMap.newKeySet();

    @Override
    public FacadeResult<ThreadState> threadState(String threadId) {
        if (failing.contains(threadId)) {
            return new FacadeResult.Failed<>(new ServiceError.Unavailable("host unreachable"));
        }
        ThreadState state = threads.get(threadId);
        return state == null ? new FacadeResult.Failed<>(new ServiceError.NotFound("no such thread", "thread"))
                : new FacadeResult.Ok<>(state);
    }

    private static <T> T unused() {
        throw new UnsupportedOperationException("not part of the PIP");
    }

    @Override
    public FacadeResult<List<ThreadSummary>> listThreads(Optional<String> t3ProjectId) {
        return unused();
    }

    @Override
    public FacadeResult<ThreadDetail> readThread(String threadId) {
        return unused();
    }

    @Override
    public FacadeResult<List<HostProject>> listProjects() {
        return unused();
    }

    @Override
    public FacadeResult<WorktreeStatus> worktreeStatus(String threadId) {
        return unused();
    }

    @Override
    public FacadeResult<PreviewStatus> previewStatus(String threadId) {
        return unused();
    }

    @Override
    public FacadeResult<PreviewStatus> openPreview(HostCaller caller, String threadId, String url,
            IdempotencyKey key) {
        return unused();
    }

    @Override
    public FacadeResult<Delegation> delegate(HostCaller caller, String threadId, String task,
            dev.gatehouse.facade.host.ThreadModes modes, IdempotencyKey key) {
        return unused();
    }

    @Override
    public FacadeResult<LaunchedThread> launch(HostCaller caller, LaunchRequest request, IdempotencyKey key) {
        return unused();
    }

    @Override
    public FacadeResult<MessageReceipt> send(HostCaller caller, String threadId, String message,
            IdempotencyKey key) {
        return unused();
    }

    @Override
    public FacadeResult<InterruptReceipt> interrupt(HostCaller caller, String threadId, IdempotencyKey key) {
        return unused();
    }

    @Override
    public FacadeResult<HostProject> updateProject(HostCaller caller, String t3ProjectId, ProjectChanges changes,
            IdempotencyKey key) {
        return unused();
    }

    @Override
    public FacadeResult<EnvironmentPreferences> updatePreferences(HostCaller caller,
            EnvironmentPreferences changes, IdempotencyKey key) {
        return unused();
    }
}
