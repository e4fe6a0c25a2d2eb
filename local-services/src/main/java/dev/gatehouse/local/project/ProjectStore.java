package dev.gatehouse.local.project;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.gatehouse.local.http.ApiException;
import dev.gatehouse.local.storage.JsonState;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The local Project Service: work runs with revisions ({@code run:N}, {@code position:N}) per agent, and
 * submits with idempotency keys. A submit with current revisions commits at once and advances the run revision;
 * a stale revision is 409 {@code stale_revision}; a submit on a closed run is stored as a {@code rejected}
 * operation. Repeating a key with the same request returns the stored operation; with another request it is 422
 * {@code idempotency_key_reused}. All methods are serialised; every change is saved before it is answered.
 */
public final class ProjectStore {

    private static final Pattern RUN_REVISION = Pattern.compile("run:([0-9]{1,18})");
    private static final Pattern ASSIGNMENT_REVISION = Pattern.compile("position:([0-9]{1,18})");
    private static final ObjectMapper CANONICAL = new ObjectMapper()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    private final JsonState<ProjectState> file;
    private final ProjectState state;

    /** @param file where the state lives; loaded now, or started empty */
    public ProjectStore(JsonState<ProjectState> file) {
        this.file = file;
        this.state = file.load().orElseGet(ProjectState::new);
    }

    /** The outcome of a submit: the operation, and whether it was created now or replayed. */
    public record Submitted(ProjectState.Operation operation, boolean created) {
    }

    /** Adds a project and its runs (demo seeding). */
    public synchronized void seed(String projectId, List<ProjectState.Run> runs) {
        state.projects.add(projectId);
        runs.forEach(run -> state.runs.put(projectId + "/" + run.runId, run));
        file.save(state);
    }

    /** The agent's runs in the project; 404 {@code project_not_found} for an unknown project. */
    public synchronized List<ProjectState.Run> runs(String projectId, String agentId) {
        requireProject(projectId);
        return state.runs.values().stream()
                .filter(run -> run.projectId.equals(projectId) && run.agentId.equals(agentId)).toList();
    }

    /** One of the agent's runs; 404 {@code run_not_found} when absent or assigned to someone else. */
    public synchronized ProjectState.Run run(String projectId, String agentId, String runId) {
        requireProject(projectId);
        ProjectState.Run run = state.runs.get(projectId + "/" + runId);
        if (run == null || !run.agentId.equals(agentId)) {
            throw ApiException.notFound("run_not_found", "no such run for this agent");
        }
        return run;
    }

    /** Submits a result under idempotency key {@code key} (see the class comment for the rules). */
    public synchronized Submitted submit(String projectId, String agentId, String runId, String key,
            String runRevision, String assignmentRevision, Map<String, Object> result) {
        String hash = hash(runId, runRevision, assignmentRevision, result);
        for (ProjectState.Operation existing : state.operations.values()) {
            if (existing.projectId.equals(projectId) && existing.agentId.equals(agentId)
                    && existing.idempotencyKey.equals(key)) {
                if (!existing.requestHash.equals(hash)) {
                    throw ApiException.unprocessable("idempotency_key_reused",
                            "the idempotency key was used for another request");
                }
                return new Submitted(existing, false);
            }
        }
        ProjectState.Run run = run(projectId, agentId, runId);
        long runRev = revision(RUN_REVISION, runRevision, "runRevision");
        long assignmentRev = revision(ASSIGNMENT_REVISION, assignmentRevision, "assignmentRevision");
        if (runRev != run.runRevision || assignmentRev != run.assignmentRevision) {
            throw ApiException.conflict("stale_revision", "the run or assignment revision is not current");
        }
        ProjectState.Operation operation = new ProjectState.Operation();
        operation.operationId = "op-" + state.nextOperation++;
        operation.projectId = projectId;
        operation.agentId = agentId;
        operation.runId = runId;
        operation.idempotencyKey = key;
        operation.requestHash = hash;
        if (run.status.equals("closed")) {
            operation.status = "rejected";
            operation.reason = "run_closed";
        } else {
            operation.status = "committed";
            run.status = "submitted";
            run.runRevision++;
            run.result = result;
        }
        state.operations.put(operation.operationId, operation);
        file.save(state);
        return new Submitted(operation, true);
    }

    /** One of the agent's operations; 404 {@code operation_not_found} when absent. */
    public synchronized ProjectState.Operation operation(String projectId, String agentId, String operationId) {
        ProjectState.Operation operation = state.operations.get(operationId);
        if (operation == null || !operation.projectId.equals(projectId) || !operation.agentId.equals(agentId)) {
            throw ApiException.notFound("operation_not_found", "no such operation for this agent");
        }
        return operation;
    }

    /** The agent's operations started with idempotency key {@code key} (zero or one). */
    public synchronized List<ProjectState.Operation> operationsByKey(String projectId, String agentId, String key) {
        return state.operations.values().stream().filter(op -> op.projectId.equals(projectId)
                && op.agentId.equals(agentId) && Objects.equals(op.idempotencyKey, key)).toList();
    }

    /** The state itself, for the {@link NoticeStore}, which holds this store's lock while it uses it. */
    ProjectState state() {
        return state;
    }

    /** Saves the state; the caller holds this store's lock. */
    void save() {
        file.save(state);
    }

    private void requireProject(String projectId) {
        if (!state.projects.contains(projectId)) {
            throw ApiException.notFound("project_not_found", "no such project");
        }
    }

    private static long revision(Pattern pattern, String value, String field) {
        Matcher matcher = pattern.matcher(value);
        if (!matcher.matches()) {
            throw ApiException.badRequest("bad_revision", "malformed " + field);
        }
        return Long.parseLong(matcher.group(1));
    }

    private static String hash(String runId, String runRevision, String assignmentRevision,
            Map<String, Object> result) {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("runId", runId);
        request.put("runRevision", runRevision);
        request.put("assignmentRevision", assignmentRevision);
        request.put("result", result);
        try {
            byte[] canonical = CANONICAL.writeValueAsString(request).getBytes(StandardCharsets.UTF_8);
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(canonical));
        } catch (JsonProcessingException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("cannot hash a submit", e);
        }
    }
}
