package dev.gatehouse.facade.host;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static dev.gatehouse.facade.http.StubService.error;
import static dev.gatehouse.facade.http.StubService.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.error.ServiceError;
import dev.gatehouse.facade.http.ContractSchemas;
import dev.gatehouse.facade.http.IdempotencyKey;
import dev.gatehouse.facade.http.ReplyMapper;
import dev.gatehouse.facade.http.ServiceClient;
import dev.gatehouse.facade.http.StubService;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The host facade against a WireMock host: shells, identity headers, projections and error kinds. */
class HttpHostFacadeTest {

    private static final String T1 = "{\"threadId\":\"t1\",\"title\":\"Demo\",\"archived\":false,"
            + "\"runtimeMode\":\"full-access\",\"interactionMode\":\"default\",\"activeRunId\":\"run-1\","
            + "\"providerInstanceId\":\"pi-1\",\"projectId\":\"demo\",\"messages\":[]}";
    private static final HostCaller CALLER = new HostCaller("a1", Optional.of("t1"));
    private static final IdempotencyKey KEY = IdempotencyKey.forDecision(UUID.randomUUID());

    private static StubService stub;
    private static HttpHostFacade facade;

    @BeforeAll
    static void start() {
        stub = new StubService();
        facade = new HttpHostFacade(new ServiceClient(stub.endpoint("host")), new ReplyMapper("host", StubService.DEADLINE.toMillis()));
        stub.server().stubFor(get("/host/v1/threads/t1").willReturn(json(200, T1)));
        facade.threadState("t1");
        stub.server().resetAll();
    }

    @AfterAll
    static void stop() {
        facade.close();
        stub.close();
    }

    @AfterEach
    void reset() {
        stub.server().resetAll();
    }

    @Test
    void threadStateIsTheFreshShell() {
        assertEquals(List.of(), ContractSchemas.errors("host", "ThreadDetail", T1));
        stub.server().stubFor(get("/host/v1/threads/t1").willReturn(json(200, T1)));

        assertEquals(new FacadeResult.Ok<>(new ThreadState("t1", false, "full-access", "default",
                Optional.of("run-1"), Optional.of("pi-1"), Optional.of("demo"))), facade.threadState("t1"));
    }

    @Test
    void unknownThreadIsNotFoundThreadAndUnknownModeIsIncompatible() {
        stub.server().stubFor(get("/host/v1/threads/t9").willReturn(error(404, "thread_not_found")));
        assertEquals(new FacadeResult.Failed<>(new ServiceError.NotFound("the host service has no such thread",
                "thread")), facade.threadState("t9"));

        stub.server().stubFor(get("/host/v1/threads/t1").willReturn(json(200, T1.replace("full-access", "god"))));
        assertEquals("incompatible", kind(facade.threadState("t1")));
    }

    @Test
    void idsAreEncodedAsOnePathSegment() {
        stub.server().stubFor(get(urlEqualTo("/host/v1/threads/a%2F..%2Fb")).willReturn(error(404,
                "thread_not_found")));

        assertEquals("not_found", kind(facade.threadState("a/../b")));
    }

    @Test
    void launchSendsResolvedModesAndCallerHeadersAndMapsUnknownProject() {
        stub.server().stubFor(post("/host/v1/threads").willReturn(json(201, "{\"threadId\":\"t-9\","
                + "\"runId\":\"run-9\",\"runtimeMode\":\"auto\",\"interactionMode\":\"plan\"}")));
        LaunchRequest request = new LaunchRequest("demo", "go", Optional.empty(), new ThreadModes("auto", "plan"));

        assertEquals(new FacadeResult.Ok<>(new LaunchedThread("t-9", "run-9", new ThreadModes("auto", "plan"))),
                facade.launch(CALLER, request, KEY));
        LoggedRequest sent = stub.server().findAll(postRequestedFor(urlEqualTo("/host/v1/threads"))).get(0);
        assertEquals(List.of(), ContractSchemas.errors("host", "LaunchRequest", sent.getBodyAsString()));
        assertEquals("a1", sent.getHeader("Gatehouse-Agent-Id"));
        assertEquals("t1", sent.getHeader("Gatehouse-Thread-Id"));

        stub.server().stubFor(post("/host/v1/threads").willReturn(error(404, "project_not_found")));
        assertEquals(new ServiceError.NotFound("the host service has no such project", "project"),
                assertInstanceOf(FacadeResult.Failed.class, facade.launch(CALLER, request, KEY)).error());
    }

    @Test
    void worktreeDropsTheWorkspaceReference() {
        String body = "{\"branch\":\"main\",\"clean\":false,\"changedFiles\":[\"a.txt\"],\"ahead\":1,\"behind\":0,"
                + "\"workspaceRef\":\"ws-secret\"}";
        assertEquals(List.of(), ContractSchemas.errors("host", "Worktree", body));
        stub.server().stubFor(get("/host/v1/threads/t1/worktree").willReturn(json(200, body)));

        assertEquals(new FacadeResult.Ok<>(new WorktreeStatus("main", false, List.of("a.txt"), 1, 0)),
                facade.worktreeStatus("t1"));
    }

    @Test
    void aSendPastItsDeadlineIsUncertainWithItsKeyAndSentOnce() {
        stub.server().stubFor(post("/host/v1/threads/t1/messages").willReturn(aResponse().withFixedDelay(4_000)
                .withStatus(201)));

        assertEquals(new FacadeResult.Failed<>(new ServiceError.Uncertain(
                "the host service did not answer within " + StubService.DEADLINE.toMillis()
                        + " ms; the change may or may not have been applied",
                Optional.of(KEY.value()))), facade.send(CALLER, "t1", "hello", KEY));
        stub.server().verify(1, postRequestedFor(urlEqualTo("/host/v1/threads/t1/messages")));
        assertEquals(1, stub.server().getAllServeEvents().size(), "nothing but the send was sent");
    }

    @Test
    void everyMutationCarriesTheCallersKey() {
        stub.server().stubFor(any(anyUrl()).willReturn(error(422, "scripted")));
        ThreadModes modes = new ThreadModes("auto", "plan");
        List<FacadeResult<?>> results = List.of(
                facade.openPreview(CALLER, "t1", "http://127.0.0.1:3000/", KEY),
                facade.delegate(CALLER, "t1", "task", modes, KEY),
                facade.launch(CALLER, new LaunchRequest("demo", "go", Optional.empty(), modes), KEY),
                facade.send(CALLER, "t1", "hello", KEY),
                facade.interrupt(CALLER, "t1", KEY),
                facade.updateProject(CALLER, "demo", new ProjectChanges(Optional.of("n"), Optional.empty()), KEY),
                facade.updatePreferences(CALLER, new EnvironmentPreferences(Optional.of("auto"), Optional.empty(),
                        Optional.empty()), KEY));

        results.forEach(result -> assertEquals("rejected", kind(result)));
        List<LoggedRequest> sent = stub.server().findAll(anyRequestedFor(anyUrl()));
        assertEquals(results.size(), sent.size());
        sent.forEach(request -> assertEquals(KEY.value(), request.getHeader("Idempotency-Key"),
                request.getMethod() + " " + request.getUrl()));
    }

    private static String kind(FacadeResult<?> result) {
        return assertInstanceOf(FacadeResult.Failed.class, result).error().kind();
    }
}
