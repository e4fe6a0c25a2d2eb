package dev.gatehouse.facade.wiki;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.delete;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.put;
import static com.github.tomakehurst.wiremock.client.WireMock.putRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.gatehouse.facade.http.StubService.error;
import static dev.gatehouse.facade.http.StubService.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.github.tomakehurst.wiremock.http.Fault;
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

/** The Wiki facade against a WireMock Wiki service: paths relative to the root, nothing from outside it. */
class HttpWikiFacadeTest {

    private static final IdempotencyKey KEY = IdempotencyKey.forDecision(UUID.randomUUID());

    private static final WikiScope A1 = new WikiScope("a1", "agents/a1");

    private static StubService stub;
    private static HttpWikiFacade facade;

    @BeforeAll
    static void start() {
        stub = new StubService();
        facade = new HttpWikiFacade(new ServiceClient(stub.endpoint("wiki")), new ReplyMapper("wiki", StubService.DEADLINE.toMillis()));
        stub.server().stubFor(get(urlPathEqualTo("/wiki/v1/folders")).willReturn(json(200,
                "{\"path\":\"agents/a1\",\"entries\":[]}")));
        facade.list(A1, "agents/a1");
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
    void listingIsRelativeToTheRootAndDropsAnythingOutsideIt() {
        String body = "{\"path\":\"agents/a1\",\"entries\":["
                + "{\"path\":\"agents/a1/page.md\",\"kind\":\"page\",\"revision\":\"r3\"},"
                + "{\"path\":\"agents/a1/notes\",\"kind\":\"folder\"},"
                + "{\"path\":\"agents/a10/page.md\",\"kind\":\"page\",\"revision\":\"r1\"},"
                + "{\"path\":\"agents/a2/secret.md\",\"kind\":\"page\",\"revision\":\"r1\"}]}";
        assertEquals(List.of(), ContractSchemas.errors("wiki", "FolderListing", body));
        stub.server().stubFor(get(urlPathEqualTo("/wiki/v1/folders")).withQueryParam("path", equalTo("agents/a1"))
                .withHeader("Gatehouse-Agent-Id", equalTo("a1")).willReturn(json(200, body)));

        assertEquals(new FacadeResult.Ok<>(List.of(
                new WikiEntry("page.md", "page", Optional.of("r3")),
                new WikiEntry("notes", "folder", Optional.empty()))), facade.list(A1, "agents/a1"));
    }

    @Test
    void searchKeepsOnlyHitsInsideTheRoot() {
        stub.server().stubFor(get(urlPathEqualTo("/wiki/v1/search")).withQueryParam("path", equalTo("agents/a1"))
                .withQueryParam("query", equalTo("secret words")).willReturn(json(200, "{\"hits\":["
                        + "{\"path\":\"agents/a1/x y/p.md\",\"snippet\":\"secret words here\"},"
                        + "{\"path\":\"agents/a2/secret.md\",\"snippet\":\"A2-SECRET\"}]}")));

        assertEquals(new FacadeResult.Ok<>(List.of(new WikiHit("x y/p.md", "secret words here"))),
                facade.search(A1, "agents/a1", "secret words"));
    }

    @Test
    void aPageFromOutsideTheRootIsIncompatibleNotShown() {
        stub.server().stubFor(get(urlPathEqualTo("/wiki/v1/pages")).willReturn(json(200,
                "{\"path\":\"agents/a2/secret.md\",\"content\":\"A2-SECRET\",\"revision\":\"r1\"}")));

        ServiceError error = assertInstanceOf(FacadeResult.Failed.class, facade.read(A1, "agents/a1/page.md"))
                .error();

        assertEquals("incompatible", error.kind());
    }

    @Test
    void writeSendsTheContractBodyAndMapsConflictAndMissingPage() {
        stub.server().stubFor(put(urlPathEqualTo("/wiki/v1/pages")).willReturn(json(200,
                "{\"path\":\"agents/a1/page.md\",\"revision\":\"r4\"}")));

        assertEquals(new FacadeResult.Ok<>(new WikiRevision("page.md", "r4")),
                facade.write(A1, "agents/a1/page.md", "new text", Optional.of("r3"), KEY));
        LoggedRequest sent = stub.server().findAll(putRequestedFor(urlPathEqualTo("/wiki/v1/pages"))).get(0);
        assertEquals(List.of(), ContractSchemas.errors("wiki", "WriteRequest", sent.getBodyAsString()));
        assertEquals("agents/a1/page.md", sent.queryParameter("path").firstValue());

        stub.server().stubFor(put(urlPathEqualTo("/wiki/v1/pages")).willReturn(error(409, "revision_conflict")));
        assertEquals("conflict", kind(facade.write(A1, "agents/a1/page.md", "x", Optional.of("r1"), KEY)));
        stub.server().stubFor(put(urlPathEqualTo("/wiki/v1/pages")).willReturn(error(409, "page_locked")));
        assertEquals(new FacadeResult.Failed<>(new ServiceError.Conflict("the wiki service reports a conflict"
                + " (page_locked); re-read and retry")), facade.write(A1, "agents/a1/page.md", "x", Optional.of("r1"),
                KEY), "a code outside the contract is reported as it came");

        stub.server().stubFor(delete(urlPathEqualTo("/wiki/v1/pages")).willReturn(error(404, "page_not_found")));
        assertEquals(new FacadeResult.Failed<>(new ServiceError.NotFound("the wiki service has no such page",
                "page")), facade.delete(A1, "agents/a1/gone.md", "r1", KEY));
    }

    @Test
    void moveSendsBothPathsAndTheContractBodyAndProjectsTheAnswerRelativeToTheRoot() {
        String answer = "{\"from\":\"agents/a1/page.md\",\"to\":\"agents/a1/archive/page.md\",\"revision\":\"r4\"}";
        assertEquals(List.of(), ContractSchemas.errors("wiki", "PageMove", answer));
        stub.server().stubFor(post(urlPathEqualTo("/wiki/v1/moves")).withHeader("Gatehouse-Agent-Id", equalTo("a1"))
                .willReturn(json(200, answer)));

        assertEquals(new FacadeResult.Ok<>(new WikiMove("page.md", "archive/page.md", "r4")),
                facade.move(A1, "agents/a1/page.md", "agents/a1/archive/page.md", "r3", KEY));
        LoggedRequest sent = stub.server().findAll(postRequestedFor(urlPathEqualTo("/wiki/v1/moves"))).get(0);
        assertEquals(List.of(), ContractSchemas.errors("wiki", "MoveRequest", sent.getBodyAsString()));
        assertEquals("{\"baseRevision\":\"r3\"}", sent.getBodyAsString());
        assertEquals(List.of("agents/a1/page.md", "agents/a1/archive/page.md"), List.of(
                sent.queryParameter("from").firstValue(), sent.queryParameter("to").firstValue()));
    }

    @Test
    void moveMapsMissingPageStaleRevisionTakenDestinationAndForeignAnswers() {
        stub.server().stubFor(post(urlPathEqualTo("/wiki/v1/moves")).willReturn(error(404, "page_not_found")));
        assertEquals(new FacadeResult.Failed<>(new ServiceError.NotFound("the wiki service has no such page",
                "page")), facade.move(A1, "agents/a1/gone.md", "agents/a1/b.md", "r1", KEY));

        for (String code : List.of("revision_conflict", "page_exists")) {
            stub.server().stubFor(post(urlPathEqualTo("/wiki/v1/moves")).willReturn(error(409, code)));
            assertEquals("conflict", kind(facade.move(A1, "agents/a1/page.md", "agents/a1/b.md", "r1", KEY)), code);
        }
        assertEquals(new FacadeResult.Failed<>(new ServiceError.Conflict("the wiki service reports a conflict"
                + " (page_exists): a page exists at the destination, and it is never overwritten")),
                facade.move(A1, "agents/a1/page.md", "agents/a1/b.md", "r1", KEY));

        for (String foreign : List.of("{\"from\":\"agents/a1/page.md\",\"to\":\"agents/a2/b.md\",\"revision\":\"r2\"}",
                "{\"from\":\"agents/a10/page.md\",\"to\":\"agents/a1/b.md\",\"revision\":\"r2\"}")) {
            stub.server().stubFor(post(urlPathEqualTo("/wiki/v1/moves")).willReturn(json(200, foreign)));
            assertEquals("incompatible", kind(facade.move(A1, "agents/a1/page.md", "agents/a1/b.md", "r1", KEY)));
        }
    }

    @Test
    void aMoveWhoseConnectionBreaksIsUncertainAndNotResent() {
        stub.server().stubFor(post(urlPathEqualTo("/wiki/v1/moves"))
                .willReturn(com.github.tomakehurst.wiremock.client.WireMock.aResponse()
                        .withFault(Fault.RANDOM_DATA_THEN_CLOSE)));

        assertEquals("uncertain", kind(facade.move(A1, "agents/a1/page.md", "agents/a1/b.md", "r1", KEY)));
        stub.server().verify(1, postRequestedFor(urlPathEqualTo("/wiki/v1/moves")));
    }

    @Test
    void aWriteWhoseConnectionBreaksIsUncertainAndNotResent() {
        stub.server().stubFor(put(urlPathEqualTo("/wiki/v1/pages"))
                .willReturn(com.github.tomakehurst.wiremock.client.WireMock.aResponse()
                        .withFault(Fault.RANDOM_DATA_THEN_CLOSE)));

        assertEquals("uncertain", kind(facade.write(A1, "agents/a1/page.md", "x", Optional.empty(), KEY)));
        stub.server().verify(1, putRequestedFor(urlPathEqualTo("/wiki/v1/pages")));
    }

    @Test
    void everyMutationCarriesTheCallersKeyAndAnUnansweredOneReportsItAsTheOperation() {
        stub.server().stubFor(put(urlPathEqualTo("/wiki/v1/pages")).willReturn(json(200,
                "{\"path\":\"agents/a1/page.md\",\"revision\":\"r4\"}").withFixedDelay(3_000)));
        stub.server().stubFor(delete(urlPathEqualTo("/wiki/v1/pages")).willReturn(json(200,
                "{\"path\":\"agents/a1/page.md\",\"revision\":\"r4\"}").withFixedDelay(3_000)));
        stub.server().stubFor(post(urlPathEqualTo("/wiki/v1/moves")).willReturn(json(200,
                "{\"from\":\"agents/a1/a.md\",\"to\":\"agents/a1/b.md\",\"revision\":\"r4\"}")
                .withFixedDelay(3_000)));
        ServiceError.Uncertain lost = new ServiceError.Uncertain("the wiki service did not answer within "
                + StubService.DEADLINE.toMillis() + " ms; the change may or may not have been applied",
                Optional.of(KEY.value()));

        assertEquals(new FacadeResult.Failed<>(lost), facade.write(A1, "agents/a1/page.md", "x", Optional.empty(),
                KEY));
        assertEquals(new FacadeResult.Failed<>(lost), facade.delete(A1, "agents/a1/page.md", "r3", KEY));
        assertEquals(new FacadeResult.Failed<>(lost), facade.move(A1, "agents/a1/a.md", "agents/a1/b.md", "r3", KEY));

        List<LoggedRequest> sent = stub.server().findAll(anyRequestedFor(anyUrl()));
        assertEquals(3, sent.size(), "each sent once, nothing else asked");
        assertEquals(List.of(KEY.value(), KEY.value(), KEY.value()),
                sent.stream().map(request -> request.getHeader("Idempotency-Key")).toList());
    }

    private static String kind(FacadeResult<?> result) {
        return assertInstanceOf(FacadeResult.Failed.class, result).error().kind();
    }
}
