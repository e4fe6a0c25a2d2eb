package dev.gatehouse.facade.host;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.http.IdempotencyKey;
import java.util.List;
import java.util.Optional;

/**
 * The host's orchestration API (docs/domain.md §5, thread and environment tools). Implementations add the service
 * credential; the acting identity comes only from the {@link HostCaller} built from the trusted context. No method
 * throws for a service failure: it comes back as {@link FacadeResult.Failed} with one kind of docs/domain.md §8. Reads
 * may be retried once when the connection was refused; mutations are never retried, each carries the caller's
 * {@link IdempotencyKey} ({@code key}), and a mutation whose outcome is unknown is {@code uncertain} with that key as
 * its operation id. Every call ends within the service's deadline.
 */
public interface HostFacade {

    /** Shell of one thread, read fresh; NotFound("thread") when it does not exist. */
    FacadeResult<ThreadState> threadState(String threadId);

    /** Threads of the environment, of one T3 project when {@code t3ProjectId} is given. */
    FacadeResult<List<ThreadSummary>> listThreads(Optional<String> t3ProjectId);

    /** One thread with its latest messages; NotFound("thread") when it does not exist. */
    FacadeResult<ThreadDetail> readThread(String threadId);

    /** The T3 projects of the environment. */
    FacadeResult<List<HostProject>> listProjects();

    /** Worktree status of a thread; NotFound("thread") when it does not exist. */
    FacadeResult<WorktreeStatus> worktreeStatus(String threadId);

    /** Browser preview of a thread; NotFound("thread") when it does not exist. */
    FacadeResult<PreviewStatus> previewStatus(String threadId);

    /** Opens the browser preview of the caller's thread {@code threadId} at {@code url} (mutation). */
    FacadeResult<PreviewStatus> openPreview(HostCaller caller, String threadId, String url, IdempotencyKey key);

    /** Hands {@code task} to a sub-agent of thread {@code threadId} at the resolved {@code modes} (mutation). */
    FacadeResult<Delegation> delegate(HostCaller caller, String threadId, String task, ThreadModes modes,
            IdempotencyKey key);

    /** Starts a thread (mutation); NotFound("project") when the T3 project does not exist. */
    FacadeResult<LaunchedThread> launch(HostCaller caller, LaunchRequest request, IdempotencyKey key);

    /** Sends a message to thread {@code threadId} (mutation); NotFound("thread") when it does not exist. */
    FacadeResult<MessageReceipt> send(HostCaller caller, String threadId, String message, IdempotencyKey key);

    /** Interrupts the active run of thread {@code threadId} (mutation); NotFound("thread") when absent. */
    FacadeResult<InterruptReceipt> interrupt(HostCaller caller, String threadId, IdempotencyKey key);

    /** Renames a T3 project or changes its default branch (mutation); NotFound("project") when absent. */
    FacadeResult<HostProject> updateProject(HostCaller caller, String t3ProjectId, ProjectChanges changes,
            IdempotencyKey key);

    /** Changes environment preferences (mutation); returns all preferences after the change. */
    FacadeResult<EnvironmentPreferences> updatePreferences(HostCaller caller, EnvironmentPreferences changes,
            IdempotencyKey key);
}
