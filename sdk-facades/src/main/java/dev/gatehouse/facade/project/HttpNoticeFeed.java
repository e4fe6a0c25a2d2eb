package dev.gatehouse.facade.project;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.http.Fields;
import dev.gatehouse.facade.http.ReplyMapper;
import dev.gatehouse.facade.http.Requests;
import dev.gatehouse.facade.http.ServiceClient;
import dev.gatehouse.facade.http.Undecodable;
import io.micronaut.http.HttpMethod;
import java.util.Map;
import java.util.Optional;

/**
 * {@link NoticeFeed} over the Project notice contract: {@code GET /project/v1/clients/{clientId}/notices?after=&waitMs=}
 * → {@code {notices: [...], cursor}}, and {@code POST …/notices/{noticeId}/ack} with {@code {state}}.
 */
public final class HttpNoticeFeed implements NoticeFeed, AutoCloseable {

    private static final String NOTICE = "notice";

    private final ServiceClient client;
    private final ReplyMapper mapper;

    public HttpNoticeFeed(ServiceClient client, ReplyMapper mapper) {
        this.client = client;
        this.mapper = mapper;
    }

    @Override
    public FacadeResult<NoticePage> poll(String clientId, Optional<String> after, long waitMillis) {
        String uri = base(clientId) + "?waitMs=" + waitMillis + after.map(a -> "&after=" + Requests.query(a)).orElse("");
        return mapper.read(client.read(() -> Requests.get(uri)), NOTICE, body -> new NoticePage(
                Fields.list(body, "notices", HttpNoticeFeed::notice), Fields.text(body, "cursor")));
    }

    @Override
    public FacadeResult<String> acknowledge(String clientId, String noticeId, String state) {
        String uri = base(clientId) + "/" + Requests.segment(noticeId) + "/ack";
        return mapper.mutation(client.mutate(Requests.json(HttpMethod.POST, uri, Map.of("state", state))), NOTICE,
                body -> Fields.text(body, "state"), Optional.empty());
    }

    private static WorkNotice notice(JsonNode n) throws Undecodable {
        return new WorkNotice(Fields.text(n, "cursor"), Fields.text(n, "noticeId"), Fields.integer(n, "version"),
                Fields.text(n, "agentId"), Fields.text(n, "agentName"), Fields.text(n, "projectId"),
                Fields.text(n, "projectName"), Fields.text(n, "workId"), Fields.text(n, "positionId"),
                Fields.text(n, "runId"), Fields.text(n, "runRevision"), Fields.text(n, "assignmentRevision"),
                Fields.optionalText(n, "summary"));
    }

    private static String base(String clientId) {
        return "/project/v1/clients/" + Requests.segment(clientId) + "/notices";
    }

    @Override
    public void close() {
        client.close();
    }
}
