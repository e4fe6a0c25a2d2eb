package dev.gatehouse.facade.host;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.http.Fields;
import dev.gatehouse.facade.http.ReplyMapper;
import dev.gatehouse.facade.http.Requests;
import dev.gatehouse.facade.http.ServiceClient;
import dev.gatehouse.facade.http.Undecodable;
import io.micronaut.http.HttpMethod;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link NoticeThreads} over the host HTTP contract: thread reads ({@code agentId}, {@code workProjectId} and each
 * message's {@code aggregateId}), {@code POST /host/v1/threads} with {@code workProjectId} and {@code aggregateId},
 * and {@code POST …/messages} with {@code aggregateId}. Mutations carry the agent as {@code Gatehouse-Agent-Id};
 * none is retried.
 */
public final class HttpNoticeThreads implements NoticeThreads, AutoCloseable {

    private static final String BASE = "/host/v1";
    private static final String THREAD = "thread";

    private final ServiceClient client;
    private final ReplyMapper mapper;

    public HttpNoticeThreads(ServiceClient client, ReplyMapper mapper) {
        this.client = client;
        this.mapper = mapper;
    }

    @Override
    public FacadeResult<NoticeThread> thread(String threadId) {
        return mapper.read(client.read(() -> Requests.get(path(threadId))), THREAD,
                HttpNoticeThreads::shell);
    }

    @Override
    public FacadeResult<List<NoticeThread>> threadsOf(String agentId, String workProjectId) {
        String uri = BASE + "/threads?agentId=" + Requests.query(agentId) + "&workProjectId="
                + Requests.query(workProjectId);
        return mapper.read(client.read(() -> Requests.get(uri)), THREAD,
                body -> Fields.list(body, "threads", HttpNoticeThreads::shell));
    }

    @Override
    public FacadeResult<NoticeThread> create(String agentId, String workProjectId, String t3ProjectId,
            ThreadModes modes, String message, String aggregateId) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("projectId", t3ProjectId);
        body.put("prompt", message);
        body.put("title", "Project Work");
        body.put("runtimeMode", modes.runtimeMode());
        body.put("interactionMode", modes.interactionMode());
        body.put("workProjectId", workProjectId);
        body.put("aggregateId", aggregateId);
        return mapper.mutation(client.mutate(Requests.json(HttpMethod.POST, BASE + "/threads", body)
                .header(Requests.AGENT_HEADER, agentId)), "project",
                node -> new NoticeThread(Fields.text(node, "threadId"), false,
                        Fields.optionalText(node, "runId"), Optional.of(agentId), Optional.of(workProjectId)),
                Optional.empty());
    }

    @Override
    public FacadeResult<MessageReceipt> post(String threadId, String message, String aggregateId) {
        Map<String, Object> body = Map.of("message", message, "aggregateId", aggregateId);
        return mapper.mutation(client.mutate(Requests.json(HttpMethod.POST, path(threadId) + "/messages", body)),
                THREAD, node -> new MessageReceipt(Fields.text(node, "threadId"), Fields.text(node, "messageId")),
                Optional.empty());
    }

    @Override
    public FacadeResult<List<String>> aggregateIds(String threadId) {
        return mapper.read(client.read(() -> Requests.get(path(threadId) + "/aggregates")), THREAD,
                body -> Fields.list(body, "aggregateIds", node -> {
                    if (!node.isTextual()) {
                        throw new Undecodable("aggregate id is not a string");
                    }
                    return node.textValue();
                }));
    }

    private static NoticeThread shell(JsonNode node) throws Undecodable {
        return new NoticeThread(Fields.text(node, "threadId"), Fields.bool(node, "archived"),
                Fields.optionalText(node, "activeRunId"), Fields.optionalText(node, "agentId"),
                Fields.optionalText(node, "workProjectId"));
    }

    private static String path(String threadId) {
        return BASE + "/threads/" + Requests.segment(threadId);
    }

    @Override
    public void close() {
        client.close();
    }
}
