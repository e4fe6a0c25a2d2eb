package dev.gatehouse.local.project;

import com.fasterxml.jackson.databind.JsonNode;
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
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Project notice contract: a Project client's notice stream ({@code GET /project/v1/clients/{clientId}/notices
 * ?after=&waitMs=}, long polling, at most 25 s), its ACKs, and the demo/admin route that assigns work and so emits a
 * notice ({@code POST /project/v1/admin/assignments}).
 */
@Controller("/project/v1")
@ExecuteOn(TaskExecutors.BLOCKING)
public class NoticeController {

    private static final long MAX_WAIT_MS = 25_000;

    private final NoticeStore notices;

    public NoticeController(NoticeStore notices) {
        this.notices = notices;
    }

    /** {@code GET …/clients/{clientId}/notices} → {@code {notices: [...], cursor}}. */
    @Get("/clients/{clientId}/notices")
    public HttpResponse<byte[]> poll(@PathVariable String clientId, @QueryValue Optional<String> after,
            @QueryValue Optional<Long> waitMs) throws InterruptedException {
        long from = after.map(NoticeController::cursor).orElse(0L);
        List<ProjectState.Notice> page = notices.after(clientId, from,
                Math.min(MAX_WAIT_MS, waitMs.orElse(0L)));
        String next = page.isEmpty() ? Long.toString(from) : Long.toString(page.get(page.size() - 1).seq);
        return ApiResponses.ok(Map.of("notices", page.stream().map(NoticeController::notice).toList(),
                "cursor", next));
    }

    /** {@code POST …/clients/{clientId}/notices/{noticeId}/ack} with {@code {state}} → {@code {noticeId, state}}. */
    @Post("/clients/{clientId}/notices/{noticeId}/ack")
    @Consumes(MediaType.APPLICATION_JSON)
    public HttpResponse<byte[]> ack(@PathVariable String clientId, @PathVariable String noticeId,
            @Body byte[] body) {
        ProjectState.Notice notice = notices.acknowledge(clientId, noticeId,
                RequestBodies.text(RequestBodies.object(body), "state"));
        return ApiResponses.ok(Map.of("noticeId", notice.noticeId, "state", notice.ackState));
    }

    /**
     * {@code POST /project/v1/admin/assignments} with {@code {clientId, agentId, agentName, projectId, projectName,
     * runId, title, summary?}} → 201 with the notice it emitted (demo and tests).
     */
    @Post("/admin/assignments")
    @Consumes(MediaType.APPLICATION_JSON)
    public HttpResponse<byte[]> assign(@Body byte[] body) {
        JsonNode request = RequestBodies.object(body);
        ProjectState.Notice notice = notices.assign(RequestBodies.text(request, "clientId"),
                RequestBodies.text(request, "agentId"), RequestBodies.text(request, "agentName"),
                RequestBodies.text(request, "projectId"), RequestBodies.text(request, "projectName"),
                RequestBodies.text(request, "runId"), RequestBodies.text(request, "title"),
                RequestBodies.optionalText(request, "summary"));
        return ApiResponses.json(HttpStatus.CREATED, notice(notice));
    }

    private static long cursor(String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("bad_cursor", "the cursor is not one this stream gave");
        }
    }

    private static Map<String, Object> notice(ProjectState.Notice n) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("cursor", Long.toString(n.seq));
        out.put("noticeId", n.noticeId);
        out.put("version", n.version);
        out.put("agentId", n.agentId);
        out.put("agentName", n.agentName);
        out.put("projectId", n.projectId);
        out.put("projectName", n.projectName);
        out.put("workId", n.workId);
        out.put("positionId", n.positionId);
        out.put("runId", n.runId);
        out.put("runRevision", n.runRevision);
        out.put("assignmentRevision", n.assignmentRevision);
        if (n.summary != null) {
            out.put("summary", n.summary);
        }
        return out;
    }
}
