package dev.gatehouse.local.host;

import dev.gatehouse.local.http.ApiException;
import dev.gatehouse.local.http.KeyedRequest;
import dev.gatehouse.local.storage.JsonState;
import java.time.Clock;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The local host: threads with modes, archived flag, live run and provider instance; T3 projects; environment
 * preferences. All methods are serialised; every change is saved before it is answered. Missing things are 404
 * ({@code thread_not_found}, {@code project_not_found}); acting on an archived thread is 422
 * {@code thread_archived}; an unknown mode is 400 {@code bad_mode}.
 *
 * <p>A mutation sent with an {@code Idempotency-Key} goes through {@link #once}: its answer is kept with the key and
 * saved in the same write as the change, so a crash leaves both or neither; the same key with the same request is
 * answered with the kept answer and changes nothing; with another request it is 422
 * {@code idempotency_key_reused}. Only successful answers are kept: a refused request changed nothing, and sent
 * again it is decided again.
 */
public final class HostStore {

    private static final Set<String> RUNTIME_MODES = Set.of("approval-required", "auto-accept-edits", "auto",
            "full-access");
    private static final Set<String> INTERACTION_MODES = Set.of("plan", "default");

    /**
     * The most answers kept; the oldest is forgotten first. A key older than that is taken as new: the gateway
     * never resends a mutation, so only an agent's lookup after an unknown outcome, soon after, relies on it.
     */
    public static final int MAX_REPLIES = 1_000;

    private final JsonState<HostState> file;
    private final HostState state;
    private final Clock clock;
    /** Set while {@link #once} runs a change: the change's own saves wait for the one that also keeps its answer. */
    private boolean saveDeferred;

    public HostStore(JsonState<HostState> file, Clock clock) {
        this.file = file;
        this.clock = clock;
        this.state = file.load().orElseGet(HostState::new);
    }

    /** An answer to a mutation: HTTP status and JSON body. */
    public record Answer(int status, Map<String, Object> body) {
    }

    /**
     * Carries out {@code change} once per key: without a key it simply runs; with one seen before it returns the
     * kept answer when the fingerprint matches and refuses otherwise; with a new key it runs the change and keeps
     * its answer, saving both in one write.
     *
     * @throws ApiException 422 {@code idempotency_key_reused} when the key was sent with another request; whatever
     *                      {@code change} throws, in which case nothing is kept
     */
    public synchronized Answer once(Optional<KeyedRequest> keyed, Supplier<Answer> change) {
        if (keyed.isEmpty()) {
            return change.get();
        }
        HostState.Reply kept = state.replies.get(keyed.get().key());
        if (kept != null) {
            if (!kept.fingerprint.equals(keyed.get().fingerprint())) {
                throw ApiException.unprocessable("idempotency_key_reused",
                        "the idempotency key was used for another request");
            }
            return new Answer(kept.status, kept.body);
        }
        Answer answer;
        saveDeferred = true;
        try {
            answer = change.get();
        } finally {
            saveDeferred = false;
        }
        HostState.Reply reply = new HostState.Reply();
        reply.fingerprint = keyed.get().fingerprint();
        reply.status = answer.status();
        reply.body = answer.body();
        state.replies.put(keyed.get().key(), reply);
        Iterator<String> oldest = state.replies.keySet().iterator();
        while (state.replies.size() > MAX_REPLIES) {
            oldest.next();
            oldest.remove();
        }
        save();
        return answer;
    }

    private void save() {
        if (!saveDeferred) {
            file.save(state);
        }
    }

    /** Adds projects and threads (demo seeding). */
    public synchronized void seed(List<HostState.Project> projects, List<HostState.Thread> threads) {
        projects.forEach(p -> state.projects.put(p.projectId, p));
        threads.forEach(t -> state.threads.put(t.threadId, t));
        save();
    }

    /** Threads, of one project when given. */
    public synchronized List<HostState.Thread> threads(Optional<String> projectId) {
        return state.threads.values().stream()
                .filter(t -> projectId.isEmpty() || projectId.get().equals(t.projectId)).toList();
    }

    public synchronized HostState.Thread thread(String threadId) {
        HostState.Thread thread = state.threads.get(threadId);
        if (thread == null) {
            throw ApiException.notFound("thread_not_found", "no such thread");
        }
        return thread;
    }

    public synchronized List<HostState.Project> projects() {
        return List.copyOf(state.projects.values());
    }

    public synchronized HostState.Preferences preferences() {
        return state.preferences;
    }

    /** Renames a project or changes its default branch. */
    public synchronized HostState.Project updateProject(String projectId, Optional<String> name,
            Optional<String> defaultBranch) {
        HostState.Project project = project(projectId);
        name.ifPresent(n -> project.name = n);
        defaultBranch.ifPresent(b -> project.defaultBranch = b);
        save();
        return project;
    }

    /** Starts a thread with a live run in {@code projectId}, owned by {@code agentId}. */
    public synchronized HostState.Thread launch(String agentId, String projectId, String prompt,
            Optional<String> title, String runtimeMode, String interactionMode) {
        return launch(agentId, projectId, prompt, title, runtimeMode, interactionMode, Optional.empty(),
                Optional.empty());
    }

    /**
     * Starts a thread as {@link #launch(String, String, String, Optional, String, String)} does, working for
     * Project Service project {@code workProjectId} when given, its first message tagged {@code aggregateId}.
     */
    public synchronized HostState.Thread launch(String agentId, String projectId, String prompt,
            Optional<String> title, String runtimeMode, String interactionMode, Optional<String> workProjectId,
            Optional<String> aggregateId) {
        project(projectId);
        checkModes(runtimeMode, interactionMode);
        HostState.Thread thread = new HostState.Thread();
        thread.threadId = "t-" + state.nextId++;
        thread.title = title.orElse("Untitled");
        thread.runtimeMode = runtimeMode;
        thread.interactionMode = interactionMode;
        thread.activeRunId = "run-" + state.nextId++;
        thread.providerInstanceId = "pi-local";
        thread.projectId = projectId;
        thread.agentId = agentId;
        thread.worktree.workspaceRef = "ws-" + thread.threadId;
        thread.workProjectId = workProjectId.orElse(null);
        HostState.Message first = message("user", prompt);
        first.aggregateId = aggregateId.orElse(null);
        thread.messages.add(first);
        state.threads.put(thread.threadId, thread);
        event(thread.threadId, "run_started", thread.activeRunId);
        save();
        return thread;
    }

    /** Appends a message from an agent; returns the message id. */
    public synchronized String send(String threadId, String text) {
        HostState.Thread thread = activeThread(threadId);
        HostState.Message message = message("agent", text);
        thread.messages.add(message);
        save();
        return message.messageId;
    }

    /**
     * Posts a Work notice aggregate into the thread as a user message tagged {@code aggregateId}; an idle thread
     * starts a run (the agent's turn), which emits {@code run_started}. Returns the message id.
     */
    public synchronized String deliver(String threadId, String text, String aggregateId) {
        HostState.Thread thread = activeThread(threadId);
        HostState.Message message = message("user", text);
        message.aggregateId = aggregateId;
        thread.messages.add(message);
        if (thread.activeRunId == null) {
            thread.activeRunId = "run-" + state.nextId++;
            event(threadId, "run_started", thread.activeRunId);
        }
        save();
        return message.messageId;
    }

    /** The aggregate ids the thread's messages carry, oldest first. */
    public synchronized List<String> aggregateIds(String threadId) {
        return thread(threadId).messages.stream().map(m -> m.aggregateId).filter(Objects::nonNull).toList();
    }

    /** The events after {@code after}, at most 100, waiting up to {@code waitMillis} ms for one. */
    public synchronized List<HostState.Event> events(long after, long waitMillis) throws InterruptedException {
        long deadline = System.nanoTime() + Math.max(0, waitMillis) * 1_000_000;
        while (true) {
            List<HostState.Event> found = state.events.stream().filter(e -> e.seq > after).limit(100).toList();
            long left = deadline - System.nanoTime();
            if (!found.isEmpty() || left <= 0) {
                return found;
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }

    /** Ends the active run (the turn), emitting {@code run_ended}; false when none was running. */
    public synchronized boolean interrupt(String threadId) {
        HostState.Thread thread = thread(threadId);
        boolean running = thread.activeRunId != null;
        if (running) {
            event(threadId, "run_ended", thread.activeRunId);
        }
        thread.activeRunId = null;
        save();
        return running;
    }

    private void event(String threadId, String type, String runId) {
        HostState.Event event = new HostState.Event();
        event.seq = ++state.lastEvent;
        event.threadId = threadId;
        event.type = type;
        event.runId = runId;
        state.events.add(event);
        notifyAll();
    }

    /** Records a task handed to a sub-agent of the thread. */
    public synchronized HostState.Delegation delegate(String threadId, String agentId, String task,
            String runtimeMode, String interactionMode) {
        HostState.Thread thread = activeThread(threadId);
        checkModes(runtimeMode, interactionMode);
        HostState.Delegation delegation = new HostState.Delegation();
        delegation.delegationId = "d-" + state.nextId++;
        delegation.task = task;
        delegation.runtimeMode = runtimeMode;
        delegation.interactionMode = interactionMode;
        delegation.status = "started";
        delegation.requestedBy = agentId;
        thread.delegations.add(delegation);
        save();
        return delegation;
    }

    /** Opens the thread's preview at {@code url}. */
    public synchronized HostState.Preview openPreview(String threadId, String url) {
        HostState.Thread thread = activeThread(threadId);
        thread.preview.open = true;
        thread.preview.url = url;
        save();
        return thread.preview;
    }

    /** Applies the given preference changes; returns all preferences. */
    public synchronized HostState.Preferences updatePreferences(Optional<String> runtimeMode,
            Optional<String> interactionMode, Optional<Integer> autoArchiveDays) {
        runtimeMode.ifPresent(mode -> checkModes(mode, "default"));
        interactionMode.ifPresent(mode -> checkModes("auto", mode));
        runtimeMode.ifPresent(mode -> state.preferences.defaultRuntimeMode = mode);
        interactionMode.ifPresent(mode -> state.preferences.defaultInteractionMode = mode);
        autoArchiveDays.ifPresent(days -> state.preferences.autoArchiveDays = days);
        save();
        return state.preferences;
    }

    private HostState.Thread activeThread(String threadId) {
        HostState.Thread thread = thread(threadId);
        if (thread.archived) {
            throw ApiException.unprocessable("thread_archived", "the thread is archived");
        }
        return thread;
    }

    private HostState.Project project(String projectId) {
        HostState.Project project = state.projects.get(projectId);
        if (project == null) {
            throw ApiException.notFound("project_not_found", "no such project");
        }
        return project;
    }

    private HostState.Message message(String role, String text) {
        HostState.Message message = new HostState.Message();
        message.messageId = "m-" + state.nextId++;
        message.role = role;
        message.text = text;
        message.sentAt = clock.instant().toString();
        return message;
    }

    private static void checkModes(String runtimeMode, String interactionMode) {
        if (!RUNTIME_MODES.contains(runtimeMode) || !INTERACTION_MODES.contains(interactionMode)) {
            throw ApiException.badRequest("bad_mode", "unknown mode");
        }
    }
}
