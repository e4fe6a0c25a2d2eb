package dev.gatehouse.local.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.error.ServiceError;
import dev.gatehouse.facade.host.HostCaller;
import dev.gatehouse.facade.host.HttpNoticeThreads;
import dev.gatehouse.facade.host.HttpThreadFeed;
import dev.gatehouse.facade.host.NoticeThread;
import dev.gatehouse.facade.host.ThreadEvent;
import dev.gatehouse.facade.host.ThreadEventPage;
import dev.gatehouse.facade.host.ThreadListing;
import dev.gatehouse.facade.host.ThreadModes;
import dev.gatehouse.facade.project.HttpNoticeFeed;
import dev.gatehouse.facade.project.NoticePage;
import dev.gatehouse.facade.project.WorkNotice;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The notice half of the local Project Service and host through the real facades: assigning work emits one notice
 * with a deterministic id to the owning client only, the stream resumes after a cursor, ACKs are recorded; host
 * threads for notices carry owner, project and aggregate ids, and run started / run ended events are streamed.
 */
class NoticeContractTest {

    @TempDir
    static Path data;

    private static LocalServices services;
    private static RawHttp raw;

    @BeforeAll
    static void start() {
        services = new LocalServices(data.resolve("notices"));
        raw = new RawHttp(services.uri(), LocalServices.CREDENTIAL);
    }

    @AfterAll
    static void stop() {
        services.close();
    }

    private static void assign(String clientId, String agentId, String runId) {
        RawHttp.Answer answer = raw.post("/project/v1/admin/assignments", "unused", """
                {"clientId": "%s", "agentId": "%s", "agentName": "Agent", "projectId": "ps-n", "projectName": "N",
                 "runId": "%s", "title": "Title of %s"}""".formatted(clientId, agentId, runId, runId));
        assertEquals(201, answer.status(), answer.body());
    }

    @Test
    void assigningWorkEmitsOneNoticeToTheOwningClientOnly() {
        HttpNoticeFeed feed = services.notices(LocalServices.CREDENTIAL);
        assign("c-1", "a-1", "r-1");
        assign("c-2", "a-2", "r-2");
        NoticePage page = ((FacadeResult.Ok<NoticePage>) feed.poll("c-1", Optional.empty(), 0)).value();
        assertEquals(1, page.notices().size());
        WorkNotice notice = page.notices().get(0);
        assertEquals("n-ps-n-r-1-1", notice.noticeId(), "deterministic: project, run, assignment revision");
        assertEquals("position:1", notice.assignmentRevision());
        assertEquals("a-1", notice.agentId());
        NoticePage after = ((FacadeResult.Ok<NoticePage>) feed.poll("c-1", Optional.of(page.cursor()), 0)).value();
        assertTrue(after.notices().isEmpty(), "resumed after the cursor");
        assertEquals(page.cursor(), after.cursor());
        assign("c-1", "a-1", "r-1");
        WorkNotice again = ((FacadeResult.Ok<NoticePage>) feed.poll("c-1", Optional.of(page.cursor()), 0)).value()
                .notices().get(0);
        assertEquals("n-ps-n-r-1-2", again.noticeId(), "a new assignment revision is a new notice");
        assertEquals(new FacadeResult.Ok<>("delivered"), feed.acknowledge("c-1", notice.noticeId(), "delivered"));
        assertEquals(new FacadeResult.Ok<>("delivered"), feed.acknowledge("c-1", notice.noticeId(), "delivered"),
                "an ACK repeated changes nothing");
        assertInstanceOf(ServiceError.NotFound.class, ((FacadeResult.Failed<String>) feed.acknowledge("c-2",
                notice.noticeId(), "delivered")).error(), "another client cannot ACK it");
        assertInstanceOf(ServiceError.Rejected.class, ((FacadeResult.Failed<String>) feed.acknowledge("c-1",
                notice.noticeId(), "done")).error());
    }

    @Test
    void aRefusedCredentialIsAnAuthenticationFailure() {
        assertInstanceOf(ServiceError.Authentication.class, ((FacadeResult.Failed<NoticePage>) services
                .notices("wrong-credential").poll("c-1", Optional.empty(), 0)).error());
    }

    @Test
    void noticeThreadsCarryOwnerProjectAggregatesAndTurnEvents() {
        HttpNoticeThreads host = services.noticeThreads();
        HttpThreadFeed feed = services.threadFeed();
        String start = ((FacadeResult.Ok<ThreadListing>) feed.list()).value().cursor();
        NoticeThread created = ((FacadeResult.Ok<NoticeThread>) host.create("a-9", "ps-n", "demo",
                new ThreadModes("auto", "plan"), "first aggregate", "agg-1")).value();
        NoticeThread shell = ((FacadeResult.Ok<NoticeThread>) host.thread(created.threadId())).value();
        assertEquals(Optional.of("a-9"), shell.agentId());
        assertEquals(Optional.of("ps-n"), shell.workProjectId());
        assertTrue(shell.busy(), "a new thread starts its first turn");
        assertEquals(List.of(created.threadId()), ((FacadeResult.Ok<List<NoticeThread>>) host.threadsOf("a-9", "ps-n"))
                .value().stream().map(NoticeThread::threadId).toList());
        services.host().interrupt(new HostCaller("a-9", Optional.empty()), created.threadId(), LocalServices.key());
        assertTrue(host.post(created.threadId(), "second aggregate", "agg-2") instanceof FacadeResult.Ok<?>);
        assertEquals(List.of("agg-1", "agg-2"),
                ((FacadeResult.Ok<List<String>>) host.aggregateIds(created.threadId())).value());
        List<ThreadEvent> events = ((FacadeResult.Ok<ThreadEventPage>) feed.events(Optional.of(start), 0)).value()
                .events().stream().filter(e -> e.threadId().equals(created.threadId())).toList();
        assertEquals(List.of("run_started", "run_ended", "run_started"),
                events.stream().map(ThreadEvent::type).toList(), "the notice message started the next turn");
        assertInstanceOf(ServiceError.NotFound.class,
                ((FacadeResult.Failed<List<String>>) host.aggregateIds("t-none")).error());
    }
}
