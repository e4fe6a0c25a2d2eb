package dev.gatehouse.facade.project;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.error.ServiceError;
import dev.gatehouse.facade.http.Fields;
import dev.gatehouse.facade.http.IdempotencyKey;
import dev.gatehouse.facade.http.Reply;
import dev.gatehouse.facade.http.ReplyMapper;
import dev.gatehouse.facade.http.Requests;
import dev.gatehouse.facade.http.ServiceClient;
import dev.gatehouse.facade.http.ServiceRequest;
import dev.gatehouse.facade.http.Undecodable;
import io.micronaut.http.HttpMethod;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link ProjectFacade} over the Project HTTP contract (schemas/services/project.schema.json). The bound project and
 * the agent are path segments chosen here from the {@link ProjectBinding}; runs are re-projected without
 * {@code projectId}, {@code executorRef} and {@code workspaceRef}. Each submit carries the caller's
 * {@link IdempotencyKey}; when its outcome is uncertain and the service named no operation, that key is the
 * operation id reported, and {@link #getOperation} looks an id of that form up by key
 * ({@code GET …/operations?idempotencyKey=}). Nothing is asked after an uncertain submit, so the call ends within the
 * one deadline of its exchange.
 */
public final class HttpProjectFacade implements ProjectFacade, AutoCloseable {

    private static final String RUN = "run";
    private static final String OPERATION = "operation";

    private final ServiceClient client;
    private final ReplyMapper mapper;

    public HttpProjectFacade(ServiceClient client, ReplyMapper mapper) {
        this.client = client;
        this.mapper = mapper;
    }

    @Override
    public FacadeResult<List<WorkRun>> listWork(ProjectBinding binding) {
        String uri = base(binding) + "/work";
        return mapper.read(client.read(() -> as(binding, Requests.get(uri))), RUN,
                body -> Fields.list(body, "runs", HttpProjectFacade::run));
    }

    @Override
    public FacadeResult<WorkRun> getWork(ProjectBinding binding, String runId) {
        String uri = base(binding) + "/work/" + Requests.segment(runId);
        return mapper.read(client.read(() -> as(binding, Requests.get(uri))), RUN, HttpProjectFacade::run);
    }

    @Override
    public FacadeResult<Operation> submitWork(ProjectBinding binding, WorkSubmission submission, IdempotencyKey key) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("runRevision", submission.runRevision());
        body.put("assignmentRevision", submission.assignmentRevision());
        body.put("result", submission.result());
        String uri = base(binding) + "/work/" + Requests.segment(submission.runId()) + "/submissions";
        Reply reply = client.mutate(as(binding, Requests.json(HttpMethod.POST, uri, body)), key);
        return mapper.mutation(reply, RUN, HttpProjectFacade::operation, Optional.of(key));
    }

    @Override
    public FacadeResult<Operation> getOperation(ProjectBinding binding, String operationId) {
        Optional<IdempotencyKey> key = IdempotencyKey.parse(operationId);
        if (key.isPresent()) {
            String uri = base(binding) + "/operations?idempotencyKey=" + Requests.query(key.get().value());
            FacadeResult<List<Operation>> found = mapper.read(client.read(() -> as(binding, Requests.get(uri))),
                    OPERATION, HttpProjectFacade::atMostOneOperation);
            if (found instanceof FacadeResult.Ok<List<Operation>> ok) {
                // None: the service never started an operation under that key (the submit did not arrive, or was
                // refused before it began).
                return ok.value().isEmpty()
                        ? new FacadeResult.Failed<>(new ServiceError.NotFound("the " + client.service()
                                + " service has no such " + OPERATION, OPERATION))
                        : new FacadeResult.Ok<>(ok.value().get(0));
            }
            return new FacadeResult.Failed<>(((FacadeResult.Failed<List<Operation>>) found).error());
        }
        String uri = base(binding) + "/operations/" + Requests.segment(operationId);
        return mapper.read(client.read(() -> as(binding, Requests.get(uri))), OPERATION,
                HttpProjectFacade::operation);
    }

    /** An {@code OperationList} answered for one key: zero or one operation, more is not the contract. */
    private static List<Operation> atMostOneOperation(JsonNode body) throws Undecodable {
        List<Operation> found = Fields.list(body, "operations", HttpProjectFacade::operation);
        if (found.size() > 1) {
            throw new Undecodable("more than one operation for one idempotency key");
        }
        return found;
    }

    private static WorkRun run(JsonNode node) throws Undecodable {
        return new WorkRun(Fields.text(node, "runId"), Fields.text(node, "title"), Fields.text(node, "status"),
                Fields.text(node, "runRevision"), Fields.text(node, "assignmentRevision"));
    }

    private static Operation operation(JsonNode node) throws Undecodable {
        String status = Fields.text(node, "status");
        if (!status.equals("pending") && !status.equals("committed") && !status.equals("rejected")) {
            throw new Undecodable("unknown operation status");
        }
        return new Operation(Fields.text(node, "operationId"), status, Fields.text(node, "runId"),
                Fields.optionalText(node, "reason"));
    }

    private static String base(ProjectBinding binding) {
        return "/project/v1/projects/" + Requests.segment(binding.projectId()) + "/agents/"
                + Requests.segment(binding.agentId());
    }

    private static ServiceRequest as(ProjectBinding binding, ServiceRequest request) {
        return request.header(Requests.AGENT_HEADER, binding.agentId());
    }

    @Override
    public void close() {
        client.close();
    }
}
