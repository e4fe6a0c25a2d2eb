package dev.gatehouse.facade.http;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.error.ServiceError;
import dev.gatehouse.facade.host.HostFacade;
import dev.gatehouse.facade.project.ProjectBinding;
import dev.gatehouse.facade.project.ProjectFacade;
import dev.gatehouse.facade.wiki.WikiFacade;
import dev.gatehouse.facade.wiki.WikiScope;
import io.micronaut.context.ApplicationContext;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The facade beans as the gateway gets them: configured from {@code gatehouse.services.*}, or disabled. */
class FacadeFactoryTest {

    @Test
    void configuredServiceIsCalledWithItsCredentialAndUnconfiguredOnesAreUnavailable() {
        try (StubService stub = new StubService();
                ApplicationContext context = ApplicationContext.run(Map.of(
                        "gatehouse.services.wiki.url", stub.server().baseUrl(),
                        "gatehouse.services.wiki.credential", "from-config",
                        "gatehouse.services.wiki.deadline", "2s"))) {
            stub.server().stubFor(get(urlPathEqualTo("/wiki/v1/folders"))
                    .withHeader("Authorization", equalTo("Bearer from-config"))
                    .willReturn(StubService.json(200, "{\"path\":\"agents/a1\",\"entries\":[]}")));

            assertEquals(new FacadeResult.Ok<>(List.of()),
                    context.getBean(WikiFacade.class).list(new WikiScope("a1", "agents/a1"), "agents/a1"));
            assertEquals(new FacadeResult.Failed<>(new ServiceError.Unavailable(
                    "the project integration is disabled")),
                    context.getBean(ProjectFacade.class).listWork(new ProjectBinding("a1", "p")));
            assertEquals("unavailable", ((FacadeResult.Failed<?>) context.getBean(HostFacade.class)
                    .threadState("t1")).error().kind());
        }
    }

    @Test
    void theEndpointNeverPrintsItsCredential() {
        ServiceEndpoint endpoint = ServiceEndpoint.of("wiki", java.net.URI.create("http://127.0.0.1:1"),
                "very-secret", StubService.DEADLINE);

        assertFalse(endpoint.toString().contains("very-secret"));
    }
}
