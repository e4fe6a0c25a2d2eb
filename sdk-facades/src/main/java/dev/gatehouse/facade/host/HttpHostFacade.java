package dev.gatehouse.facade.host;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.http.Fields;
import dev.gatehouse.facade.http.IdempotencyKey;
import dev.gatehouse.facade.http.Projection;
import dev.gatehouse.facade.http.ReplyMapper;
import dev.gatehouse.facade.http.Requests;
import dev.gatehouse.facade.http.ServiceClient;
import dev.gatehouse.facade.http.ServiceRequest;
import io.micronaut.http.HttpMethod;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link HostFacade} over the host HTTP contract (schemas/services/host.schema.json). Mutations carry the acting
 * agent and thread as headers from the {@link HostCaller} and the caller's {@code Idempotency-Key}; none is retried,
 * and the host names no operations, so an uncertain host mutation carries its key as the operation id.
 */
public final class HttpHostFacade implements HostFacade, AutoCloseable {

    private static final String BASE = "/host/v1";
    private static final String THREAD = "thread";
    private static final String PROJECT = "project";

    private final ServiceClient client;
    private final ReplyMapper mapper;

    public HttpHostFacade(ServiceClient client, ReplyMapper mapper) {
        this.client = client;
        this.mapper = mapper;
    }

    @Override
    public FacadeResult<ThreadState> threadState(String threadId) {
        return read(thread(threadId), THREAD, HostProjections::state);
    }

    @Override
    public FacadeResult<List<ThreadSummary>> listThreads(Optional<String> t3ProjectId) {
        String uri = BASE + "/threads" + t3ProjectId.map(p -> "?projectId=" + Requests.query(p)).orElse("");
        return read(uri, THREAD, body -> Fields.list(body, "threads", HostProjections::summary));
    }

    @Override
    public FacadeResult<ThreadDetail> readThread(String threadId) {
        return read(thread(threadId), THREAD, HostProjections::detail);
    }

    @Override
    public FacadeResult<List<HostProject>> listProjects() {
        return read(BASE + "/projects", PROJECT, body -> Fields.list(body, "projects", HostProjections::project));
    }

    @Override
    public FacadeResult<WorktreeStatus> worktreeStatus(String threadId) {
        return read(thread(threadId) + "/worktree", THREAD, HostProjections::worktree);
    }

    @Override
    public FacadeResult<PreviewStatus> previewStatus(String threadId) {
        return read(thread(threadId) + "/preview", THREAD, HostProjections::preview);
    }

    @Override
    public FacadeResult<PreviewStatus> openPreview(HostCaller caller, String threadId, String url, IdempotencyKey key) {
        return mutate(caller, key, HttpMethod.PUT, thread(threadId) + "/preview", Map.of("url", url), THREAD,
                HostProjections::preview);
    }

    @Override
    public FacadeResult<Delegation> delegate(HostCaller caller, String threadId, String task, ThreadModes modes,
            IdempotencyKey key) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("task", task);
        body.put("runtimeMode", modes.runtimeMode());
        body.put("interactionMode", modes.interactionMode());
        return mutate(caller, key, HttpMethod.POST, thread(threadId) + "/delegations", body, THREAD,
                HostProjections::delegation);
    }

    @Override
    public FacadeResult<LaunchedThread> launch(HostCaller caller, LaunchRequest request, IdempotencyKey key) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("projectId", request.t3ProjectId());
        body.put("prompt", request.prompt());
        request.title().ifPresent(title -> body.put("title", title));
        body.put("runtimeMode", request.modes().runtimeMode());
        body.put("interactionMode", request.modes().interactionMode());
        return mutate(caller, key, HttpMethod.POST, BASE + "/threads", body, PROJECT, HostProjections::launched);
    }

    @Override
    public FacadeResult<MessageReceipt> send(HostCaller caller, String threadId, String message, IdempotencyKey key) {
        return mutate(caller, key, HttpMethod.POST, thread(threadId) + "/messages", Map.of("message", message), THREAD,
                HostProjections::message);
    }

    @Override
    public FacadeResult<InterruptReceipt> interrupt(HostCaller caller, String threadId, IdempotencyKey key) {
        return mutate(caller, key, HttpMethod.POST, thread(threadId) + "/interrupt", Map.of(), THREAD,
                HostProjections::interrupt);
    }

    @Override
    public FacadeResult<HostProject> updateProject(HostCaller caller, String t3ProjectId, ProjectChanges changes,
            IdempotencyKey key) {
        Map<String, Object> body = new LinkedHashMap<>();
        changes.name().ifPresent(name -> body.put("name", name));
        changes.defaultBranch().ifPresent(branch -> body.put("defaultBranch", branch));
        return mutate(caller, key, HttpMethod.PATCH, BASE + "/projects/" + Requests.segment(t3ProjectId), body, PROJECT,
                HostProjections::project);
    }

    @Override
    public FacadeResult<EnvironmentPreferences> updatePreferences(HostCaller caller,
            EnvironmentPreferences changes, IdempotencyKey key) {
        Map<String, Object> body = new LinkedHashMap<>();
        changes.defaultRuntimeMode().ifPresent(mode -> body.put("defaultRuntimeMode", mode));
        changes.defaultInteractionMode().ifPresent(mode -> body.put("defaultInteractionMode", mode));
        changes.autoArchiveDays().ifPresent(days -> body.put("autoArchiveDays", days));
        return mutate(caller, key, HttpMethod.PATCH, BASE + "/environment/preferences", body, PROJECT,
                HostProjections::preferences);
    }

    private <T> FacadeResult<T> read(String uri, String notFound, Projection<T> p) {
        return mapper.read(client.read(() -> Requests.get(uri)), notFound, p);
    }

    private <T> FacadeResult<T> mutate(HostCaller caller, IdempotencyKey key, HttpMethod method, String uri,
            Map<String, ?> body, String notFound, Projection<T> p) {
        ServiceRequest request = Requests.json(method, uri, body).header(Requests.AGENT_HEADER,
                caller.agentId());
        caller.threadId().ifPresent(thread -> request.header(Requests.THREAD_HEADER, thread));
        return mapper.mutation(client.mutate(request, key), notFound, p, Optional.of(key));
    }

    private static String thread(String threadId) {
        return BASE + "/threads/" + Requests.segment(threadId);
    }

    @Override
    public void close() {
        client.close();
    }
}
