package dev.gatehouse.gateway.notice;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.error.ServiceError;
import dev.gatehouse.facade.host.MessageReceipt;
import dev.gatehouse.facade.host.NoticeThread;
import dev.gatehouse.facade.host.NoticeThreads;
import dev.gatehouse.facade.host.ThreadModes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The agent host as an outside service, in memory: threads with owner, project, modes, active run and messages.
 * Like the local host, creating a thread starts its first run and a notice message starts a run on an idle thread.
 * Faults: {@link #down} (every call unavailable), {@link #timeouts} (the next sends time out, after doing the work
 * when {@link #timeoutAfterApplying}).
 */
final class FakeHost implements NoticeThreads {

    /** One thread as the host keeps it. */
    static final class HostThread {
        final String threadId;
        final String agentId;
        final String workProjectId;
        final ThreadModes modes;
        boolean archived;
        String activeRun;
        final List<String> aggregateIds = new ArrayList<>();
        final List<String> messages = new ArrayList<>();

        HostThread(String threadId, String agentId, String workProjectId, ThreadModes modes) {
            this.threadId = threadId;
            this.agentId = agentId;
            this.workProjectId = workProjectId;
            this.modes = modes;
        }

        NoticeThread shell() {
            return new NoticeThread(threadId, archived, Optional.ofNullable(activeRun), Optional.of(agentId),
                    Optional.ofNullable(workProjectId));
        }
    }

    final Map<String, HostThread> threads = new LinkedHashMap<>();
    boolean down;
    int timeouts;
    boolean timeoutAfterApplying;
    int sends;
    /** Messages posted into a thread whose turn was still running: a second message within one turn. */
    int postsWhileBusy;
    /** Ids are unique across instances, as a real host's are: every test shares one store. */
    private static int nextId = 1;

    /** A thread that exists before any notice (e.g. started by the agent's user). */
    synchronized HostThread add(String agentId, String workProjectId, boolean busy) {
        HostThread thread = new HostThread("t-" + nextId++, agentId, workProjectId,
                new ThreadModes("auto", "default"));
        thread.activeRun = busy ? "run-" + nextId++ : null;
        threads.put(thread.threadId, thread);
        return thread;
    }

    /** The agent's turn ends. */
    synchronized void endTurn(String threadId) {
        threads.get(threadId).activeRun = null;
    }

    synchronized List<HostThread> of(String agentId) {
        return threads.values().stream().filter(t -> t.agentId.equals(agentId)).toList();
    }

    @Override
    public synchronized FacadeResult<NoticeThread> thread(String threadId) {
        if (down) {
            return unavailable();
        }
        HostThread thread = threads.get(threadId);
        return thread == null ? notFound() : new FacadeResult.Ok<>(thread.shell());
    }

    @Override
    public synchronized FacadeResult<List<NoticeThread>> threadsOf(String agentId, String workProjectId) {
        if (down) {
            return unavailable();
        }
        return new FacadeResult.Ok<>(threads.values().stream()
                .filter(t -> t.agentId.equals(agentId) && workProjectId.equals(t.workProjectId))
                .map(HostThread::shell).toList());
    }

    @Override
    public synchronized FacadeResult<NoticeThread> create(String agentId, String workProjectId, String t3ProjectId,
            ThreadModes modes, String message, String aggregateId) {
        if (down) {
            return unavailable();
        }
        sends++;
        boolean timeout = timeouts > 0 && timeouts-- > 0;
        if (!timeout || timeoutAfterApplying) {
            HostThread thread = new HostThread("t-" + nextId++, agentId, workProjectId, modes);
            thread.activeRun = "run-" + nextId++;
            thread.aggregateIds.add(aggregateId);
            thread.messages.add(message);
            threads.put(thread.threadId, thread);
            if (!timeout) {
                return new FacadeResult.Ok<>(thread.shell());
            }
        }
        return uncertain();
    }

    @Override
    public synchronized FacadeResult<MessageReceipt> post(String threadId, String message, String aggregateId) {
        if (down) {
            return unavailable();
        }
        HostThread thread = threads.get(threadId);
        if (thread == null) {
            return notFound();
        }
        sends++;
        boolean timeout = timeouts > 0 && timeouts-- > 0;
        if (thread.activeRun != null) {
            postsWhileBusy++;
        }
        if (!timeout || timeoutAfterApplying) {
            thread.aggregateIds.add(aggregateId);
            thread.messages.add(message);
            if (thread.activeRun == null) {
                thread.activeRun = "run-" + nextId++;
            }
        }
        return timeout ? uncertain() : new FacadeResult.Ok<>(new MessageReceipt(threadId, "m-" + nextId++));
    }

    @Override
    public synchronized FacadeResult<List<String>> aggregateIds(String threadId) {
        if (down) {
            return unavailable();
        }
        HostThread thread = threads.get(threadId);
        return thread == null ? notFound() : new FacadeResult.Ok<>(List.copyOf(thread.aggregateIds));
    }

    private static <T> FacadeResult<T> unavailable() {
        return new FacadeResult.Failed<>(new ServiceError.Unavailable("host down"));
    }

    private static <T> FacadeResult<T> notFound() {
        return new FacadeResult.Failed<>(new ServiceError.NotFound("no such thread", "thread"));
    }

    private static <T> FacadeResult<T> uncertain() {
        return new FacadeResult.Failed<>(new ServiceError.Uncertain("deadline passed after sending", Optional.empty()));
    }
}
