package dev.gatehouse.local.host;

import dev.gatehouse.local.http.ApiException;
import dev.gatehouse.local.http.KeyedRequest;
import dev.gatehouse.local.storage.JsonState;
import io.micronaut.http.HttpStatus;
import java.time.Clock;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Predicate;
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
 *
 * <p>Every change of a thread's shell (run started or ended, modes, archived, provider instance) appends one event to
 * the thread events feed in the same write as the change, with the shell right after it: the feed is ordered, has no
 * gaps, and survives a restart. It keeps the latest {@code eventsKept} events; a cursor older than those, of another
 * history, or ahead of the feed is gone (410 {@code cursor_expired}), and the reader lists again
 * (schemas/services/README.md, "Thread events").
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

    /**
     * Thread events kept unless configured otherwise ({@code gatehouse.local.host-events-kept}): every change saves
     * the whole state file, events included (≈ 350 bytes each), so the log is kept short; a reader further behind
     * lists again.
     */
    public static final int DEFAULT_EVENTS_KEPT = 256;

    /** The most events one page of the feed holds. */
    static final int PAGE = 100;

    private final JsonState<HostState> file;
    private final HostState state;
    private final Clock clock;
    private final int eventsKept;
    /** Set while {@link #once} runs a change: the change's own saves wait for the one that also keeps its answer. */
    private boolean saveDeferred;

    /**
     * @param eventsKept how many of the latest thread events the feed keeps (at least 1)
     */
    public HostStore(JsonState<HostState> file, Clock clock, int eventsKept) {
        if (eventsKept < 1) {
            throw new IllegalArgumentException("eventsKept must be at least 1");
        }
        this.file = file;
        this.clock = clock;
        this.eventsKept = eventsKept;
        this.state = file.load().orElseGet(HostState::new);
        if (state.history == null) { // a new log, or one saved before histories, whose events carry no shells
            state.history = UUID.randomUUID().toString().substring(0, 13);
            state.events.clear();
            file.save(state);
        }
    }

    /** A page of the thread events feed: the events after the cursor asked for, and the cursor to resume from. */
    public record Page(List<Positioned> events, String cursor, boolean more) {
    }

    /** One event of a page with its cursor. */
    public record Positioned(String cursor, HostState.Event event) {
    }

    /** Threads, each in the caller's view, and the feed position they reflect. */
    public record Listing<T>(List<T> threads, String cursor) {
    }

    /** A change made by {@link #change}: the thread after it and the feed position after its events. */
    public record Changed(HostState.Thread thread, String cursor) {
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

    /**
     * Every thread that {@code filter} keeps, each turned into {@code view} under the store's lock, with the cursor
     * of the last event they reflect: watching after it misses no later change.
     */
    public synchronized <T> Listing<T> listing(Predicate<HostState.Thread> filter,
            Function<HostState.Thread, T> view) {
        return new Listing<>(state.threads.values().stream().filter(filter).map(view).toList(),
                cursor(state.lastEvent));
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
        event(thread, "run_started", thread.activeRunId);
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
            event(thread, "run_started", thread.activeRunId);
        }
        save();
        return message.messageId;
    }

    /** The aggregate ids the thread's messages carry, oldest first. */
    public synchronized List<String> aggregateIds(String threadId) {
        return thread(threadId).messages.stream().map(m -> m.aggregateId).filter(Objects::nonNull).toList();
    }

    /**
     * The thread events after {@code after} (from the oldest kept when empty), at most {@value #PAGE}, waiting up to
     * {@code waitMillis} ms for one; {@code more} when later events were already there.
     *
     * @throws ApiException 400 {@code bad_cursor} when {@code after} is not a cursor at all; 410
     *                      {@code cursor_expired} when it is not this feed's any more: another history, older than
     *                      the oldest event kept, or ahead of the last
     */
    public synchronized Page events(Optional<String> after, long waitMillis) throws InterruptedException {
        long deadline = System.nanoTime() + Math.max(0, waitMillis) * 1_000_000;
        long from = after.isPresent() ? position(after.get()) : oldestKept() - 1;
        while (state.lastEvent <= from) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        if (from < oldestKept() - 1) { // the retention passed it while this poll waited
            throw gone();
        }
        int start = (int) (from + 1 - oldestKept());
        List<Positioned> page = state.events.subList(start, Math.min(state.events.size(), start + PAGE)).stream()
                .map(e -> new Positioned(cursor(e.seq), e)).toList();
        long last = page.isEmpty() ? from : page.get(page.size() - 1).event().seq;
        return new Page(page, cursor(last), last < state.lastEvent);
    }

    /** Ends the active run (the turn), emitting {@code run_ended}; false when none was running. */
    public synchronized boolean interrupt(String threadId) {
        HostState.Thread thread = thread(threadId);
        String run = thread.activeRunId;
        thread.activeRunId = null;
        if (run != null) {
            event(thread, "run_ended", run);
        }
        save();
        return run != null;
    }

    /**
     * Changes a thread's shell as the host's own user or operator would (local-services' admin route): modes,
     * archived, provider instance, each when given and different from now, each emitting its event
     * ({@code modes_changed}, {@code archived} or {@code unarchived}, {@code provider_instance_changed}).
     *
     * @throws ApiException 404 {@code thread_not_found}; 400 {@code bad_mode}
     */
    public synchronized Changed change(String threadId, Optional<String> runtimeMode,
            Optional<String> interactionMode, Optional<Boolean> archived, Optional<String> providerInstanceId) {
        HostState.Thread thread = thread(threadId);
        String runtime = runtimeMode.orElse(thread.runtimeMode);
        String interaction = interactionMode.orElse(thread.interactionMode);
        checkModes(runtime, interaction);
        if (!runtime.equals(thread.runtimeMode) || !interaction.equals(thread.interactionMode)) {
            thread.runtimeMode = runtime;
            thread.interactionMode = interaction;
            event(thread, "modes_changed", null);
        }
        if (archived.isPresent() && archived.get() != thread.archived) {
            thread.archived = archived.get();
            event(thread, thread.archived ? "archived" : "unarchived", null);
        }
        if (providerInstanceId.isPresent() && !providerInstanceId.get().equals(thread.providerInstanceId)) {
            thread.providerInstanceId = providerInstanceId.get();
            event(thread, "provider_instance_changed", null);
        }
        save();
        return new Changed(thread, cursor(state.lastEvent));
    }

    private void event(HostState.Thread thread, String type, String runId) {
        HostState.Event event = new HostState.Event();
        event.seq = ++state.lastEvent;
        event.threadId = thread.threadId;
        event.type = type;
        event.runId = runId;
        event.at = clock.instant().toString();
        event.thread = HostState.Shell.of(thread);
        state.events.add(event);
        if (state.events.size() > eventsKept) {
            state.events.subList(0, state.events.size() - eventsKept).clear();
        }
        notifyAll();
    }

    private String cursor(long position) {
        return state.history + ":" + position;
    }

    /** The position of the last event before the oldest one kept. */
    private long oldestKept() {
        return state.events.isEmpty() ? state.lastEvent + 1 : state.events.get(0).seq;
    }

    /** The position a cursor of this feed names ({@code <history>:<position>}). */
    private long position(String cursor) {
        int colon = cursor.lastIndexOf(':');
        String number = cursor.substring(colon + 1);
        if (number.isEmpty() || number.length() > 18 || !number.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw ApiException.badRequest("bad_cursor", "the cursor is not one this feed gives");
        }
        long position = Long.parseLong(number);
        // A bare number is a cursor of the feed before it had histories.
        String history = colon < 0 ? "" : cursor.substring(0, colon);
        if (!history.equals(state.history) || position > state.lastEvent || position < oldestKept() - 1) {
            throw gone();
        }
        return position;
    }

    private static ApiException gone() {
        return new ApiException(HttpStatus.GONE, "cursor_expired",
                "the feed no longer holds events after this cursor; list again");
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
