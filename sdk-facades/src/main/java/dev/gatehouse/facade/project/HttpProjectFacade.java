package dev.gatehouse.facade.project;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.http.Fields;
import dev.gatehouse.facade.http.Reply;
import dev.gatehouse.facade.http.ReplyMapper;
import dev.gatehouse.facade.http.Requests;
import dev.gatehouse.facade.http.ServiceClient;
import dev.gatehouse.facade.http.Undecodable;
import io.micronaut.http.HttpMethod;
import io.micronaut.http.MutableHttpRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * {@link ProjectFacade} over the Project HTTP contract (schemas/services/project.schema.json). The bound project and
 * the agent are path segments chosen here from the {@link ProjectBinding}; runs are re-projected without
 * {@code projectId}, {@code executorRef} and {@code workspaceRef}. Each submit gets a fresh random
 * {@code Idempotency-Key}; when its outcome is uncertain and the service named no operation, the facade looks the
 * key up once (a read) to report the operation id.
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
    public FacadeResult<Operation> submitWork(ProjectBinding binding, WorkSubmission submission) {
        String key = UUID.randomUUID().toString();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("runRevision", submission.runRevision());
        body.put("assignmentRevision", submission.assignmentRevision());
        body.put("result", submission.result());
        String uri = base(binding) + "/work/" + Requests.segment(submission.runId()) + "/submissions";
        Reply reply = client.mutate(as(binding, Requests.json(HttpMethod.POST, uri, body))
                .header(Requests.IDEMPOTENCY_HEADER, key));
        return mapper.mutation(reply, RUN, HttpProjectFacade::operation, () -> operationFor(binding, key));
    }

    @Override
    public FacadeResult<Operation> getOperation(ProjectBinding binding, String operationId) {
        String uri = base(binding) + "/operations/" + Requests.segment(operationId);
        return mapper.read(client.read(() -> as(binding, Requests.get(uri))), OPERATION,
                HttpProjectFacade::operation);
    }

    /** The operation a submit with {@code key} started, if the service knows one; empty on any failure. */
    private Optional<String> operationFor(ProjectBinding binding, String key) {
        String uri = base(binding) + "/operations?idempotencyKey=" + Requests.query(key);
        FacadeResult<List<Operation>> found = mapper.read(client.read(() -> as(binding, Requests.get(uri))),
                OPERATION, body -> Fields.list(body, "operations", HttpProjectFacade::operation));
        return found instanceof FacadeResult.Ok<List<Operation>> ok && ok.value().size() == 1
                ? Optional.of(ok.value().get(0).operationId()) : Optional.empty();
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

    private static MutableHttpRequest<?> as(ProjectBinding binding, MutableHttpRequest<?> request) {
        return request.header(Requests.AGENT_HEADER, binding.agentId());
    }

    @Override
    public void close() {
        client.close();
    }
}
