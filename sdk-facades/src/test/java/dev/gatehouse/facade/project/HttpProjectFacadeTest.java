package dev.gatehouse.facade.project;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static dev.gatehouse.facade.http.StubService.error;
import static dev.gatehouse.facade.http.StubService.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.error.ServiceError;
import dev.gatehouse.facade.http.ContractSchemas;
import dev.gatehouse.facade.http.IdempotencyKey;
import dev.gatehouse.facade.http.ReplyMapper;
import dev.gatehouse.facade.http.ServiceClient;
import dev.gatehouse.facade.http.ServiceEndpoint;
import dev.gatehouse.facade.http.StubService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The Project facade against a WireMock Project Service: projection, identity, and every error kind. */
class HttpProjectFacadeTest {

    private static final ProjectBinding BINDING = new ProjectBinding("a1", "ps-demo");
    private static final String BASE = "/project/v1/projects/ps-demo/agents/a1";
    private static final String RUN = "{\"runId\":\"run-101\",\"title\":\"Changelog\",\"status\":\"open\","
            + "\"runRevision\":\"run:4\",\"assignmentRevision\":\"position:2\",\"projectId\":\"ps-demo\","
            + "\"executorRef\":\"exec-a1\",\"workspaceRef\":\"ws-9\"}";
    private static final String COMMITTED =
            "{\"operationId\":\"op-7\",\"status\":\"committed\",\"runId\":\"run-101\"}";
    private static final WorkSubmission SUBMISSION = new WorkSubmission("run-101", "run:4", "position:2",
            Map.of("summary", "done"));

    private static StubService stub;
    private static HttpProjectFacade facade;

    @BeforeAll
    static void start() {
        stub = new StubService();
        facade = facade(stub.endpoint("project"));
        // The first exchange of a JVM loads the client; keep that out of the deadlines under test.
        stub.server().stubFor(get(BASE + "/work").willReturn(json(200, "{\"runs\":[]}")));
        facade.listWork(BINDING);
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

    private static HttpProjectFacade facade(ServiceEndpoint endpoint) {
        return new HttpProjectFacade(new ServiceClient(endpoint), new ReplyMapper("project",
                endpoint.getDeadline().toMillis()));
    }

    @Test
    void listReprojectsRunsWithoutServiceIdentityAndSendsIdentityAndCredential() {
        String body = "{\"runs\":[" + RUN + "]}";
        assertEquals(List.of(), ContractSchemas.errors("project", "RunList", body));
        stub.server().stubFor(get(BASE + "/work").willReturn(json(200, body)));

        FacadeResult<List<WorkRun>> result = facade.listWork(BINDING);

        assertEquals(new FacadeResult.Ok<>(List.of(new WorkRun("run-101", "Changelog", "open", "run:4",
                "position:2"))), result);
        stub.server().verify(getRequestedFor(urlEqualTo(BASE + "/work"))
                .withHeader("Authorization", equalTo("Bearer " + StubService.CREDENTIAL))
                .withHeader("Gatehouse-Agent-Id", equalTo("a1")));
    }

    @Test
    void serverErrorOnReadIsUnavailable() {
        stub.server().stubFor(get(BASE + "/work").willReturn(aResponse().withStatus(503)));

        assertEquals("unavailable", kind(facade.listWork(BINDING)));
    }

    @Test
    void refusedCredentialIsAuthenticationAndTheNextCallWorksOnceItIsFixed() throws Exception {
        Path file = Files.createTempFile("credential", ".txt");
        file.toFile().deleteOnExit();
        Files.writeString(file, "wrong");
        ServiceEndpoint endpoint = stub.endpoint("project");
        endpoint.setCredentialFile(file);
        stub.server().stubFor(get(BASE + "/work").willReturn(error(401, "unauthenticated")));
        stub.server().stubFor(get(BASE + "/work")
                .withHeader("Authorization", equalTo("Bearer " + StubService.CREDENTIAL))
                .willReturn(json(200, "{\"runs\":[]}")));
        try (HttpProjectFacade rotating = facade(endpoint)) {
            assertEquals("authentication", kind(rotating.listWork(BINDING)));

            Files.writeString(file, StubService.CREDENTIAL + "\n");

            assertEquals(new FacadeResult.Ok<>(List.of()), rotating.listWork(BINDING));
        } finally {
            Files.delete(file);
        }
    }

    @Test
    void forbiddenIsAuthentication() {
        stub.server().stubFor(get(BASE + "/work/run-101").willReturn(error(403, "forbidden")));

        assertEquals("authentication", kind(facade.getWork(BINDING, "run-101")));
    }

    @Test
    void malformedBodyIsIncompatible() {
        stub.server().stubFor(get(BASE + "/work").willReturn(json(200, "{\"runs\": [")));

        ServiceError error = failure(facade.listWork(BINDING));

        assertInstanceOf(ServiceError.Incompatible.class, error);
        assertFalse(error.message().contains("runs"), "no raw body in messages");
    }

    @Test
    void wrongShapeContentTypeOrMissingOrOtherApiVersionIsIncompatible() {
        stub.server().stubFor(get(BASE + "/work").willReturn(json(200, "{\"runs\":\"none\"}")));
        assertEquals("incompatible", kind(facade.listWork(BINDING)));

        stub.server().stubFor(get(BASE + "/work").willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "text/html").withHeader("Api-Version", "1").withBody("{\"runs\":[]}")));
        assertEquals("incompatible", kind(facade.listWork(BINDING)));

        stub.server().stubFor(get(BASE + "/work").willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "application/json").withHeader("Api-Version", "2")
                .withBody("{\"runs\":[]}")));
        assertEquals("incompatible", kind(facade.listWork(BINDING)));

        stub.server().stubFor(get(BASE + "/work").willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "application/json").withBody("{\"runs\":[]}")));
        assertEquals("incompatible", kind(facade.listWork(BINDING)));
    }

    @Test
    void readPastItsDeadlineIsUnavailable() {
        // The answer would be a success after 5 s; only the deadline makes it unavailable (nothing is timed).
        stub.server().stubFor(get(BASE + "/work").willReturn(json(200, "{\"runs\":[]}").withFixedDelay(5_000)));

        ServiceError error = failure(facade.listWork(BINDING));
        assertEquals(new ServiceError.Unavailable("the project service did not answer within "
                + StubService.DEADLINE.toMillis() + " ms"), error);
    }

    @Test
    void unknownRunIsNotFoundRun() {
        stub.server().stubFor(get(BASE + "/work/nope").willReturn(error(404, "run_not_found")));

        ServiceError error = failure(facade.getWork(BINDING, "nope"));

        assertEquals(new ServiceError.NotFound("the project service has no such run", "run"), error);
    }

    @Test
    void theErrorCodeNamesWhatIsMissing() {
        stub.server().stubFor(get(BASE + "/work").willReturn(error(404, "project_not_found")));

        assertEquals("project", ((ServiceError.NotFound) failure(facade.listWork(BINDING))).what());
    }

    @Test
    void notFoundWithoutContractBodyIsIncompatible() {
        // A 404 that is not the contract's error (wrong base URL, another API) must not read as "no such run".
        assertEquals("incompatible", kind(facade.getWork(BINDING, "unstubbed")));
    }

    @Test
    void submitSendsTheContractBodyAndTheCallersIdempotencyKey() {
        stub.server().stubFor(post(BASE + "/work/run-101/submissions")
                .willReturn(json(201, COMMITTED).withHeader("Operation-Id", "op-7")));
        IdempotencyKey first = key();
        IdempotencyKey second = key();

        assertEquals(new FacadeResult.Ok<>(new Operation("op-7", "committed", "run-101", Optional.empty())),
                facade.submitWork(BINDING, SUBMISSION, first));
        facade.submitWork(BINDING, SUBMISSION, second);

        List<LoggedRequest> sent = stub.server().findAll(postRequestedFor(
                urlEqualTo(BASE + "/work/run-101/submissions")));
        assertEquals(2, sent.size());
        assertEquals(List.of(), ContractSchemas.errors("project", "SubmitRequest", sent.get(0).getBodyAsString()));
        assertEquals("a1", sent.get(0).getHeader("Gatehouse-Agent-Id"));
        assertEquals(List.of(first.value(), second.value()),
                sent.stream().map(request -> request.getHeader("Idempotency-Key")).toList());
    }

    @Test
    void staleRevisionIsConflictAndReusedKeyIsRejectedWithTheServiceCode() {
        stub.server().stubFor(post(BASE + "/work/run-101/submissions").willReturn(error(409, "stale_revision")));
        assertEquals("conflict", kind(facade.submitWork(BINDING, SUBMISSION, key())));

        stub.server().stubFor(post(BASE + "/work/run-101/submissions")
                .willReturn(error(422, "idempotency_key_reused")));
        ServiceError error = failure(facade.submitWork(BINDING, SUBMISSION, key()));
        assertEquals("idempotency_key_reused", ((ServiceError.Rejected) error).serviceCode());
    }

    /**
     * Found in the field: a submit to a stalled service took twice its deadline (the submit's own, then a lookup of
     * its key that stalled as well) and came back without an operation id. The key is the operation id: nothing
     * is asked after the submit, whatever state the service is in.
     */
    @Test
    void submitPastItsDeadlineIsUncertainWithItsKeyAsTheOperationAndNothingElseIsSent() {
        stub.server().stubFor(post(BASE + "/work/run-101/submissions")
                .willReturn(json(201, COMMITTED).withFixedDelay(3_000)));
        stallEveryLookup();
        IdempotencyKey key = key();

        ServiceError error = failure(facade.submitWork(BINDING, SUBMISSION, key));

        assertEquals(new ServiceError.Uncertain(error.message(), Optional.of(key.value())), error);
        assertSubmittedOnceWith(key);
    }

    @ParameterizedTest
    @EnumSource(value = Fault.class, names = {"CONNECTION_RESET_BY_PEER", "EMPTY_RESPONSE", "RANDOM_DATA_THEN_CLOSE"})
    void aBrokenExchangeAfterSendingIsUncertainWithItsKeyAndNothingElseIsSent(Fault fault) {
        stub.server().stubFor(post(BASE + "/work/run-101/submissions").willReturn(aResponse().withFault(fault)));
        stallEveryLookup();
        IdempotencyKey key = key();

        ServiceError error = failure(facade.submitWork(BINDING, SUBMISSION, key));

        assertEquals(new ServiceError.Uncertain(error.message(), Optional.of(key.value())), error);
        assertSubmittedOnceWith(key);
    }

    @Test
    void serverErrorOnSubmitIsUncertainWithTheOperationTheServiceNamed() {
        stub.server().stubFor(post(BASE + "/work/run-101/submissions")
                .willReturn(error(500, "internal").withHeader("Operation-Id", "op-9")));

        ServiceError error = failure(facade.submitWork(BINDING, SUBMISSION, key()));

        assertEquals(new ServiceError.Uncertain(error.message(), Optional.of("op-9")), error);
        stub.server().verify(1, postRequestedFor(urlPathEqualTo(BASE + "/work/run-101/submissions")));
    }

    @Test
    void serverErrorOnSubmitWithoutAnOperationIdIsUncertainWithTheKey() {
        stub.server().stubFor(post(BASE + "/work/run-101/submissions").willReturn(error(503, "busy")));
        IdempotencyKey key = key();

        assertEquals(Optional.of(key.value()), ((ServiceError.Uncertain) failure(
                facade.submitWork(BINDING, SUBMISSION, key))).operationId());
    }

    @Test
    void anOperationIsFoundByTheIdTheServiceGaveItOrByTheKeyItWasSubmittedUnder() {
        IdempotencyKey key = key();
        stub.server().stubFor(get(BASE + "/operations/op-7").willReturn(json(200, COMMITTED)));
        stub.server().stubFor(get(urlPathEqualTo(BASE + "/operations"))
                .withQueryParam("idempotencyKey", equalTo(key.value()))
                .willReturn(json(200, "{\"operations\":[" + COMMITTED + "]}")));
        Operation committed = new Operation("op-7", "committed", "run-101", Optional.empty());

        assertEquals(new FacadeResult.Ok<>(committed), facade.getOperation(BINDING, "op-7"));
        assertEquals(new FacadeResult.Ok<>(committed), facade.getOperation(BINDING, key.value()));
    }

    @Test
    void aKeyNoOperationWasStartedUnderIsNotFoundAndTwoOperationsForOneKeyAreIncompatible() {
        IdempotencyKey none = key();
        IdempotencyKey two = key();
        stub.server().stubFor(get(urlPathEqualTo(BASE + "/operations"))
                .withQueryParam("idempotencyKey", equalTo(none.value()))
                .willReturn(json(200, "{\"operations\":[]}")));
        stub.server().stubFor(get(urlPathEqualTo(BASE + "/operations"))
                .withQueryParam("idempotencyKey", equalTo(two.value()))
                .willReturn(json(200, "{\"operations\":[" + COMMITTED + "," + COMMITTED + "]}")));

        assertEquals(new ServiceError.NotFound("the project service has no such operation", "operation"),
                failure(facade.getOperation(BINDING, none.value())));
        assertEquals("incompatible", kind(facade.getOperation(BINDING, two.value())));
    }

    @Test
    void refusedConnectionIsUnavailableForReadsAndMutations() {
        ServiceEndpoint closed = ServiceEndpoint.of("project", URI.create("http://127.0.0.1:" + freePort()),
                StubService.CREDENTIAL, StubService.DEADLINE);
        try (HttpProjectFacade unreachable = facade(closed)) {
            assertEquals(new ServiceError.Unavailable("the project service is unreachable"),
                    failure(unreachable.listWork(BINDING)));
            // Nothing was sent, so the outcome is known, and the message says so: a client may send it again.
            assertEquals(new ServiceError.Unavailable("the project service is unreachable; nothing was sent, so the"
                    + " change was not applied"), failure(unreachable.submitWork(BINDING, SUBMISSION, key())));
        }
    }

    private static IdempotencyKey key() {
        return IdempotencyKey.forDecision(UUID.randomUUID());
    }

    /** A service that would hold every operation lookup past the deadline, were one sent. */
    private static void stallEveryLookup() {
        stub.server().stubFor(get(urlPathMatching(BASE + "/operations.*"))
                .willReturn(json(200, "{\"operations\":[" + COMMITTED + "]}").withFixedDelay(3_000)));
    }

    private static void assertSubmittedOnceWith(IdempotencyKey key) {
        List<LoggedRequest> submits = stub.server().findAll(postRequestedFor(
                urlPathEqualTo(BASE + "/work/run-101/submissions")));
        assertEquals(1, submits.size(), "a mutation is never retried");
        assertEquals(key.value(), submits.get(0).getHeader("Idempotency-Key"));
        assertEquals(1, stub.server().getAllServeEvents().size(), "nothing but the submit was sent");
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ServiceError failure(FacadeResult<?> result) {
        return assertInstanceOf(FacadeResult.Failed.class, result).error();
    }

    static String kind(FacadeResult<?> result) {
        return failure(result).kind();
    }
}
