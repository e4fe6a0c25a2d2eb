package dev.gatehouse.local.host;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.local.http.ApiException;
import dev.gatehouse.local.http.ApiResponses;
import dev.gatehouse.local.http.KeyedRequest;
import dev.gatehouse.local.http.RequestBodies;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.Patch;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Put;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The host HTTP contract (schemas/services/host.schema.json) over the {@link HostStore}. Every mutation honours an
 * {@code Idempotency-Key} (schemas/services/README.md, "Idempotency keys").
 */
@Controller("/host/v1")
@ExecuteOn(TaskExecutors.BLOCKING)
@Consumes(MediaType.APPLICATION_JSON)
public class HostController {

    private static final String AGENT = "Gatehouse-Agent-Id";
    private static final String THREAD = "Gatehouse-Thread-Id";
    private static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    /** How many of the latest messages a thread read returns. */
    private static final int MESSAGES = 50;

    private final HostStore store;

    public HostController(HostStore store) {
        this.store = store;
    }

    /**
     * {@code GET /host/v1/threads[?projectId=][&agentId=][&workProjectId=]} → {@code ThreadList}, with the cursor of
     * the thread events the list reflects (a watcher lists, then watches after it).
     */
    @Get("/threads")
    public HttpResponse<byte[]> threads(@QueryValue Optional<String> projectId, @QueryValue Optional<String> agentId,
            @QueryValue Optional<String> workProjectId) {
        HostStore.Listing<Map<String, Object>> listing = store.listing(t -> (projectId.isEmpty()
                || projectId.get().equals(t.projectId)) && (agentId.isEmpty() || agentId.get().equals(t.agentId))
                && (workProjectId.isEmpty() || workProjectId.get().equals(t.workProjectId)), HostController::thread);
        return ApiResponses.ok(Map.of("threads", listing.threads(), "cursor", listing.cursor()));
    }

    /** {@code GET /host/v1/threads/{threadId}/aggregates} → {@code {aggregateIds: [...]}} (notice delivery). */
    @Get("/threads/{threadId}/aggregates")
    public HttpResponse<byte[]> aggregates(@PathVariable String threadId) {
        return ApiResponses.ok(Map.of("aggregateIds", store.aggregateIds(threadId)));
    }

    /**
     * {@code GET /host/v1/events?after=&waitMs=} → {@code ThreadEventPage}: the thread events after the cursor, each
     * with the thread's shell after it, waiting up to {@code waitMs} (at most 25 s) for one; an empty page after the
     * wait is the heartbeat.
     */
    @Get("/events")
    public HttpResponse<byte[]> events(@QueryValue Optional<String> after, @QueryValue Optional<Long> waitMs)
            throws InterruptedException {
        HostStore.Page page = store.events(after, Math.min(25_000, waitMs.orElse(0L)));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("events", page.events().stream().map(HostController::event).toList());
        out.put("cursor", page.cursor());
        out.put("more", page.more());
        return ApiResponses.ok(out);
    }

    /**
     * {@code PATCH /host/v1/admin/threads/{threadId}} with {@code ThreadChange} → {@code ThreadChanged}: local-services
     * only (demo and tests), what the host's own user does to a thread (modes, archive, provider instance).
     */
    @Patch("/admin/threads/{threadId}")
    public HttpResponse<byte[]> change(@PathVariable String threadId, @Body byte[] body) {
        JsonNode request = RequestBodies.object(body);
        JsonNode archived = request.get("archived");
        if (archived != null && !archived.isBoolean()) {
            throw ApiException.badRequest("bad_request", "'archived' must be a boolean");
        }
        HostStore.Changed changed = store.change(threadId, RequestBodies.optionalText(request, "runtimeMode"),
                RequestBodies.optionalText(request, "interactionMode"),
                archived == null ? Optional.empty() : Optional.of(archived.booleanValue()),
                RequestBodies.optionalText(request, "providerInstanceId"));
        return ApiResponses.ok(Map.of("thread", thread(changed.thread()), "cursor", changed.cursor()));
    }

    /** {@code GET /host/v1/threads/{threadId}} → {@code ThreadDetail}. */
    @Get("/threads/{threadId}")
    public HttpResponse<byte[]> thread(@PathVariable String threadId) {
        HostState.Thread thread = store.thread(threadId);
        Map<String, Object> out = thread(thread);
        List<HostState.Message> messages = thread.messages;
        out.put("messages", messages.subList(Math.max(0, messages.size() - MESSAGES), messages.size()).stream()
                .map(m -> Map.of("role", m.role, "text", m.text, "sentAt", m.sentAt)).toList());
        return ApiResponses.ok(out);
    }

    /** {@code GET /host/v1/threads/{threadId}/worktree} → {@code Worktree}. */
    @Get("/threads/{threadId}/worktree")
    public HttpResponse<byte[]> worktree(@PathVariable String threadId) {
        HostState.Worktree worktree = store.thread(threadId).worktree;
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("branch", worktree.branch);
        out.put("clean", worktree.clean);
        out.put("changedFiles", worktree.changedFiles);
        out.put("ahead", worktree.ahead);
        out.put("behind", worktree.behind);
        out.put("workspaceRef", worktree.workspaceRef);
        return ApiResponses.ok(out);
    }

    /** {@code GET /host/v1/threads/{threadId}/preview} → {@code Preview}. */
    @Get("/threads/{threadId}/preview")
    public HttpResponse<byte[]> preview(@PathVariable String threadId) {
        return ApiResponses.ok(preview(store.thread(threadId).preview));
    }

    /** {@code PUT /host/v1/threads/{threadId}/preview} with {@code OpenPreviewRequest} → {@code Preview}. */
    @Put("/threads/{threadId}/preview")
    public HttpResponse<byte[]> openPreview(HttpRequest<?> http, @PathVariable String threadId, @Body byte[] body) {
        JsonNode request = RequestBodies.object(body);
        return once(http, request, () -> ok(preview(store.openPreview(threadId, RequestBodies.text(request, "url")))));
    }

    /** {@code POST /host/v1/threads} with {@code LaunchRequest} → 201 {@code LaunchedThread}. */
    @Post("/threads")
    public HttpResponse<byte[]> launch(HttpRequest<?> http, @Header(AGENT) Optional<String> agentId,
            @Body byte[] body) {
        JsonNode request = RequestBodies.object(body);
        String agent = agent(agentId);
        return once(http, request, () -> {
            HostState.Thread thread = store.launch(agent, RequestBodies.text(request, "projectId"),
                    RequestBodies.text(request, "prompt"), RequestBodies.optionalText(request, "title"),
                    RequestBodies.text(request, "runtimeMode"), RequestBodies.text(request, "interactionMode"),
                    RequestBodies.optionalText(request, "workProjectId"),
                    RequestBodies.optionalText(request, "aggregateId"));
            return new HostStore.Answer(HttpStatus.CREATED.getCode(), Map.of("threadId", thread.threadId, "runId",
                    thread.activeRunId, "runtimeMode", thread.runtimeMode, "interactionMode",
                    thread.interactionMode));
        });
    }

    /**
     * {@code POST /host/v1/threads/{threadId}/messages} with {@code SendRequest} → 201 {@code MessageReceipt}. With
     * an {@code aggregateId} it is a Work notice aggregate: a user message that starts a turn on an idle thread.
     */
    @Post("/threads/{threadId}/messages")
    public HttpResponse<byte[]> send(HttpRequest<?> http, @PathVariable String threadId, @Body byte[] body) {
        JsonNode request = RequestBodies.object(body);
        Optional<String> aggregateId = RequestBodies.optionalText(request, "aggregateId");
        String message = RequestBodies.text(request, "message");
        return once(http, request, () -> {
            String messageId = aggregateId.isPresent() ? store.deliver(threadId, message, aggregateId.get())
                    : store.send(threadId, message);
            return new HostStore.Answer(HttpStatus.CREATED.getCode(), Map.of("threadId", threadId, "messageId",
                    messageId));
        });
    }

    /** {@code POST /host/v1/threads/{threadId}/interrupt} → {@code InterruptReceipt}. */
    @Post("/threads/{threadId}/interrupt")
    public HttpResponse<byte[]> interrupt(HttpRequest<?> http, @PathVariable String threadId,
            @Nullable @Body byte[] body) {
        return once(http, RequestBodies.object(body),
                () -> ok(Map.of("threadId", threadId, "interrupted", store.interrupt(threadId))));
    }

    /** {@code POST /host/v1/threads/{threadId}/delegations} with {@code DelegateRequest} → 201 {@code Delegation}. */
    @Post("/threads/{threadId}/delegations")
    public HttpResponse<byte[]> delegate(HttpRequest<?> http, @PathVariable String threadId,
            @Header(AGENT) Optional<String> agentId, @Body byte[] body) {
        JsonNode request = RequestBodies.object(body);
        String agent = agent(agentId);
        return once(http, request, () -> {
            HostState.Delegation delegation = store.delegate(threadId, agent,
                    RequestBodies.text(request, "task"), RequestBodies.text(request, "runtimeMode"),
                    RequestBodies.text(request, "interactionMode"));
            return new HostStore.Answer(HttpStatus.CREATED.getCode(), Map.of("delegationId",
                    delegation.delegationId, "runtimeMode", delegation.runtimeMode, "interactionMode",
                    delegation.interactionMode, "status", delegation.status));
        });
    }

    /** {@code GET /host/v1/projects} → {@code ProjectList}. */
    @Get("/projects")
    public HttpResponse<byte[]> projects() {
        return ApiResponses.ok(Map.of("projects", store.projects().stream().map(HostController::project).toList()));
    }

    /** {@code PATCH /host/v1/projects/{projectId}} with {@code ProjectChanges} → {@code Project}. */
    @Patch("/projects/{projectId}")
    public HttpResponse<byte[]> updateProject(HttpRequest<?> http, @PathVariable String projectId,
            @Body byte[] body) {
        JsonNode request = RequestBodies.object(body);
        return once(http, request, () -> ok(project(store.updateProject(projectId,
                RequestBodies.optionalText(request, "name"), RequestBodies.optionalText(request, "defaultBranch")))));
    }

    /** {@code PATCH /host/v1/environment/preferences} with {@code Preferences} → {@code Preferences}. */
    @Patch("/environment/preferences")
    public HttpResponse<byte[]> updatePreferences(HttpRequest<?> http, @Body byte[] body) {
        JsonNode request = RequestBodies.object(body);
        JsonNode days = request.get("autoArchiveDays");
        if (days != null && !days.isNull() && !(days.isIntegralNumber() && days.canConvertToInt())) {
            throw ApiException.badRequest("bad_request", "'autoArchiveDays' must be an integer");
        }
        return once(http, request, () -> {
            HostState.Preferences preferences = store.updatePreferences(
                    RequestBodies.optionalText(request, "defaultRuntimeMode"),
                    RequestBodies.optionalText(request, "defaultInteractionMode"),
                    days == null || days.isNull() ? Optional.empty() : Optional.of(days.intValue()));
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("defaultRuntimeMode", preferences.defaultRuntimeMode);
            out.put("defaultInteractionMode", preferences.defaultInteractionMode);
            out.put("autoArchiveDays", preferences.autoArchiveDays);
            return ok(out);
        });
    }

    /**
     * Runs a mutation once per {@code Idempotency-Key} ({@link HostStore#once}): the request's fingerprint covers its
     * method, path and query, acting agent and thread, and body.
     */
    private HttpResponse<byte[]> once(HttpRequest<?> http, JsonNode body, Supplier<HostStore.Answer> change) {
        Optional<KeyedRequest> keyed = KeyedRequest.of(http.getHeaders().findFirst(IDEMPOTENCY_KEY),
                http.getMethodName(), http.getUri().toString(), http.getHeaders().findFirst(AGENT),
                http.getHeaders().findFirst(THREAD), body);
        HostStore.Answer answer = store.once(keyed, change);
        return ApiResponses.json(HttpStatus.valueOf(answer.status()), answer.body());
    }

    private static HostStore.Answer ok(Map<String, Object> body) {
        return new HostStore.Answer(HttpStatus.OK.getCode(), body);
    }

    private static String agent(Optional<String> agentId) {
        return agentId.filter(a -> !a.isBlank())
                .orElseThrow(() -> ApiException.badRequest("agent_required", "Gatehouse-Agent-Id missing"));
    }

    private static Map<String, Object> thread(HostState.Thread thread) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("threadId", thread.threadId);
        out.put("title", thread.title);
        out.put("archived", thread.archived);
        out.put("runtimeMode", thread.runtimeMode);
        out.put("interactionMode", thread.interactionMode);
        out.put("activeRunId", thread.activeRunId);
        out.put("providerInstanceId", thread.providerInstanceId);
        out.put("projectId", thread.projectId);
        out.put("agentId", thread.agentId);
        out.put("workProjectId", thread.workProjectId);
        return out;
    }

    private static Map<String, Object> event(HostStore.Positioned positioned) {
        HostState.Event event = positioned.event();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("cursor", positioned.cursor());
        out.put("threadId", event.threadId);
        out.put("type", event.type);
        if (event.runId != null) {
            out.put("runId", event.runId);
        }
        out.put("at", event.at);
        Map<String, Object> shell = new LinkedHashMap<>();
        shell.put("archived", event.thread.archived);
        shell.put("runtimeMode", event.thread.runtimeMode);
        shell.put("interactionMode", event.thread.interactionMode);
        shell.put("activeRunId", event.thread.activeRunId);
        shell.put("providerInstanceId", event.thread.providerInstanceId);
        shell.put("projectId", event.thread.projectId);
        out.put("thread", shell);
        return out;
    }

    private static Map<String, Object> project(HostState.Project project) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("projectId", project.projectId);
        out.put("name", project.name);
        out.put("defaultBranch", project.defaultBranch);
        out.put("workspaceRef", project.workspaceRef);
        return out;
    }

    private static Map<String, Object> preview(HostState.Preview preview) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("open", preview.open);
        out.put("url", preview.url);
        return out;
    }
}
