package dev.gatehouse.facade.http;

import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToJson;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.notContaining;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.put;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static dev.gatehouse.facade.http.StubService.error;
import static dev.gatehouse.facade.http.StubService.json;

import dev.gatehouse.facade.project.HttpProjectFacade;
import dev.gatehouse.facade.project.ProjectFacade;
import dev.gatehouse.facade.project.WorkRun;
import dev.gatehouse.facade.wiki.HttpWikiFacade;
import dev.gatehouse.facade.wiki.WikiFacade;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** {@link FacadeErrorContract} against WireMock scripted as an outside Wiki and Project Service. */
class WireMockErrorContractTest extends FacadeErrorContract {

    private static final String PROJECT = "/project/v1/projects/ps-demo/agents/a1";

    private final StubService stub = new StubService();
    private final List<AutoCloseable> facades = new ArrayList<>();

    @BeforeEach
    void outsideServiceDefaults() {
        // Lowest priority last: a wrong credential is refused before anything else is looked at.
        stub.server().stubFor(any(anyUrl()).atPriority(1)
                .withHeader("Authorization", notContaining(StubService.CREDENTIAL))
                .willReturn(error(401, "unauthenticated")));
        stub.server().stubFor(get(urlPathEqualTo("/wiki/v1/pages")).atPriority(9)
                .willReturn(error(404, "page_not_found")));
        stub.server().stubFor(get(urlPathMatching(PROJECT + "/work/.*")).atPriority(9)
                .willReturn(error(404, "run_not_found")));
        stub.server().stubFor(get(urlPathMatching(PROJECT + "/operations/.*")).atPriority(9)
                .willReturn(error(404, "operation_not_found")));
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable facade : facades) {
            facade.close();
        }
        stub.close();
    }

    @Override
    protected WikiFacade wiki(String credential) {
        HttpWikiFacade facade = new HttpWikiFacade(client("wiki", credential), new ReplyMapper("wiki", 2_000));
        facades.add(facade);
        return facade;
    }

    @Override
    protected ProjectFacade project(String credential) {
        HttpProjectFacade facade = new HttpProjectFacade(client("project", credential),
                new ReplyMapper("project", 2_000));
        facades.add(facade);
        return facade;
    }

    @Override
    protected String credential() {
        return StubService.CREDENTIAL;
    }

    @Override
    protected String givenPage(String content) {
        stub.server().stubFor(get(urlPathEqualTo("/wiki/v1/pages")).withQueryParam("path", equalTo(PAGE))
                .atPriority(5).willReturn(json(200, "{\"path\":\"" + PAGE + "\",\"content\":\"" + content
                        + "\",\"revision\":\"r1\"}")));
        stub.server().stubFor(put(urlPathEqualTo("/wiki/v1/pages")).withQueryParam("path", equalTo(PAGE))
                .atPriority(5).withRequestBody(matchingJsonPath("$.baseRevision", equalTo("r1")))
                .willReturn(json(200, "{\"path\":\"" + PAGE + "\",\"revision\":\"r2\"}")));
        stub.server().stubFor(put(urlPathEqualTo("/wiki/v1/pages")).withQueryParam("path", equalTo(PAGE))
                .atPriority(6).willReturn(error(409, "revision_conflict")));
        return "r1";
    }

    @Override
    protected WorkRun givenOpenRun() {
        stub.server().stubFor(post(PROJECT + "/work/run-101/submissions").atPriority(5)
                .withRequestBody(equalToJson("{\"runRevision\":\"run:4\",\"assignmentRevision\":\"position:2\"}",
                        true, true))
                .willReturn(json(201, "{\"operationId\":\"op-1\",\"status\":\"committed\",\"runId\":\"run-101\"}")));
        stub.server().stubFor(post(PROJECT + "/work/run-101/submissions").atPriority(6)
                .withHeader("Idempotency-Key", matching("gatehouse-[0-9a-f-]{36}"))
                .willReturn(error(409, "stale_revision")));
        return new WorkRun("run-101", "Changelog", "open", "run:4", "position:2");
    }

    private ServiceClient client(String name, String credential) {
        return new ServiceClient(ServiceEndpoint.of(name, URI.create(stub.server().baseUrl()), credential,
                Duration.ofSeconds(2)));
    }
}
