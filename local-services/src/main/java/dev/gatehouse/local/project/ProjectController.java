package dev.gatehouse.local.project;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatehouse.local.http.ApiException;
import dev.gatehouse.local.http.ApiResponses;
import dev.gatehouse.local.http.RequestBodies;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The Project HTTP contract (schemas/services/project.schema.json) over the {@link ProjectStore}. */
@Controller("/project/v1/projects/{projectId}/agents/{agentId}")
@ExecuteOn(TaskExecutors.BLOCKING)
public class ProjectController {

    /** Keeps the body's exact numbers when the result becomes a map (see RequestBodies). */
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };

    private final ProjectStore store;

    public ProjectController(ProjectStore store) {
        this.store = store;
    }

    /** {@code GET …/work} → {@code RunList}. */
    @Get("/work")
    public HttpResponse<byte[]> list(@PathVariable String projectId, @PathVariable String agentId) {
        return ApiResponses.ok(Map.of("runs", store.runs(projectId, agentId).stream().map(this::run).toList()));
    }

    /** {@code GET …/work/{runId}} → {@code Run}. */
    @Get("/work/{runId}")
    public HttpResponse<byte[]> get(@PathVariable String projectId, @PathVariable String agentId,
            @PathVariable String runId) {
        return ApiResponses.ok(run(store.run(projectId, agentId, runId)));
    }

    /**
     * {@code POST …/work/{runId}/submissions} with {@code Idempotency-Key} and {@code SubmitRequest} → 201
     * {@code Operation} (200 when replayed), with header {@code Operation-Id}.
     */
    @Post("/work/{runId}/submissions")
    @Consumes(MediaType.APPLICATION_JSON)
    public HttpResponse<byte[]> submit(@PathVariable String projectId, @PathVariable String agentId,
            @PathVariable String runId, @Header("Idempotency-Key") Optional<String> key, @Body byte[] body) {
        String idempotencyKey = key.filter(k -> !k.isBlank())
                .orElseThrow(() -> ApiException.badRequest("idempotency_key_required", "Idempotency-Key missing"));
        JsonNode request = RequestBodies.object(body);
        Map<String, Object> result = JSON.convertValue(RequestBodies.object(request, "result"), OBJECT);
        ProjectStore.Submitted submitted = store.submit(projectId, agentId, runId, idempotencyKey,
                RequestBodies.text(request, "runRevision"), RequestBodies.text(request, "assignmentRevision"),
                result);
        return ApiResponses.json(submitted.created() ? HttpStatus.CREATED : HttpStatus.OK,
                operation(submitted.operation())).header("Operation-Id", submitted.operation().operationId);
    }

    /** {@code GET …/operations/{operationId}} → {@code Operation}. */
    @Get("/operations/{operationId}")
    public HttpResponse<byte[]> operation(@PathVariable String projectId, @PathVariable String agentId,
            @PathVariable String operationId) {
        return ApiResponses.ok(operation(store.operation(projectId, agentId, operationId)));
    }

    /** {@code GET …/operations?idempotencyKey=} → {@code OperationList} (zero or one). */
    @Get("/operations")
    public HttpResponse<byte[]> byKey(@PathVariable String projectId, @PathVariable String agentId,
            @QueryValue String idempotencyKey) {
        return ApiResponses.ok(Map.of("operations",
                store.operationsByKey(projectId, agentId, idempotencyKey).stream().map(this::operation).toList()));
    }

    private Map<String, Object> run(ProjectState.Run run) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("runId", run.runId);
        out.put("title", run.title);
        out.put("status", run.status);
        out.put("runRevision", "run:" + run.runRevision);
        out.put("assignmentRevision", "position:" + run.assignmentRevision);
        // Service-side identity is part of the contract; the facade drops it (docs/domain.md §6).
        out.put("projectId", run.projectId);
        out.put("executorRef", run.executorRef);
        out.put("workspaceRef", run.workspaceRef);
        return out;
    }

    private Map<String, Object> operation(ProjectState.Operation operation) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("operationId", operation.operationId);
        out.put("status", operation.status);
        out.put("runId", operation.runId);
        if (operation.reason != null) {
            out.put("reason", operation.reason);
        }
        return out;
    }
}
