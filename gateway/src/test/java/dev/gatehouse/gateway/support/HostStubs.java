package dev.gatehouse.gateway.support;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;

/** Host-service answers for WireMock stand-ins of the services, in the host contract's shape (Api-Version 1). */
public final class HostStubs {

    private HostStubs() {
    }

    /** Thread {@code t1} of project {@code demo}: found, not archived, a run active, full-access/default. */
    public static void liveThreadT1(WireMockServer services) {
        services.stubFor(WireMock.get(urlPathEqualTo("/host/v1/threads/t1")).willReturn(aResponse().withStatus(200)
                .withHeader("Content-Type", "application/json").withHeader("Api-Version", "1")
                .withBody("{\"threadId\":\"t1\",\"title\":\"t\",\"archived\":false,\"runtimeMode\":\"full-access\","
                        + "\"interactionMode\":\"default\",\"activeRunId\":\"run-1\",\"providerInstanceId\":\"p-1\","
                        + "\"projectId\":\"demo\",\"messages\":[]}")));
    }
}
