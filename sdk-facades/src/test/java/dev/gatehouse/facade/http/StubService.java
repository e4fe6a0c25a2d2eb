package dev.gatehouse.facade.http;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import java.net.URI;
import java.time.Duration;

/** A WireMock stand-in for one outside service on loopback, with helpers for contract-shaped answers. */
public final class StubService implements AutoCloseable {

    /** The credential the stubs expect. */
    public static final String CREDENTIAL = "test-credential";
    /**
     * The deadline facades under test use. Well above a loaded machine's answer time (a stub answers in ms, but CI
     * shares two cores), and well below the delays the timeout tests use (≥ 3 s).
     */
    public static final Duration DEADLINE = Duration.ofMillis(1_500);

    private final WireMockServer server;

    public StubService() {
        server = new WireMockServer(WireMockConfiguration.options().bindAddress("127.0.0.1").dynamicPort()
                .containerThreads(12));
        server.start();
    }

    public WireMockServer server() {
        return server;
    }

    /** An endpoint pointing at this stub with the test credential and deadline. */
    public ServiceEndpoint endpoint(String name) {
        return ServiceEndpoint.of(name, URI.create(server.baseUrl()), CREDENTIAL, DEADLINE);
    }

    /** A contract answer: JSON, {@code Api-Version: 1}. */
    public static ResponseDefinitionBuilder json(int status, String body) {
        return aResponse().withStatus(status).withHeader("Content-Type", "application/json")
                .withHeader("Api-Version", "1").withBody(body);
    }

    /** A contract error answer. */
    public static ResponseDefinitionBuilder error(int status, String code) {
        return json(status, "{\"code\":\"" + code + "\",\"message\":\"from the stub\"}");
    }

    @Override
    public void close() {
        server.stop();
    }
}
