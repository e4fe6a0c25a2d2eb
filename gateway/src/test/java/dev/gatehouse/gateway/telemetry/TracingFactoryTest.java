package dev.gatehouse.gateway.telemetry;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** OTLP export: off by default; with an endpoint set, spans are POSTed there as OTLP/HTTP protobuf. */
class TracingFactoryTest {

    @Test
    void exportIsOffUnlessAnEndpointIsSet() {
        assertTrue(new TracingProperties().getOtlpEndpoint().isEmpty());
    }

    @Test
    void spansGoToTheConfiguredOtlpEndpoint() {
        WireMockServer collector = new WireMockServer(wireMockConfig().bindAddress("127.0.0.1").dynamicPort());
        collector.start();
        try {
            collector.stubFor(post(urlEqualTo("/v1/traces")).willReturn(aResponse().withStatus(200)));
            TracingProperties properties = new TracingProperties();
            properties.setOtlpEndpoint(collector.baseUrl() + "/v1/traces");
            try (OpenTelemetrySdk sdk = new TracingFactory().openTelemetry(properties, List.of())) {
                new Tracing(sdk).inSpan("gate.decide", () -> 1);
                assertTrue(sdk.getSdkTracerProvider().forceFlush().join(10, TimeUnit.SECONDS).isSuccess());
            }
            List<com.github.tomakehurst.wiremock.verification.LoggedRequest> sent =
                    collector.findAll(postRequestedFor(urlEqualTo("/v1/traces")));
            assertEquals(1, sent.size());
            assertEquals("application/x-protobuf", sent.get(0).getHeader("Content-Type"));
            assertTrue(new String(sent.get(0).getBody(), java.nio.charset.StandardCharsets.ISO_8859_1)
                    .contains("gate.decide"), "the span's name is in the protobuf body");
        } finally {
            collector.stop();
        }
    }
}
