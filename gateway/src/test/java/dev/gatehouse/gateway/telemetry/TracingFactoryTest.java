package dev.gatehouse.gateway.telemetry;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * OTLP export: off by default; with an endpoint set, spans are POSTed there as OTLP/HTTP protobuf. With nothing
 * exporting, no span is recorded and the caller's trace context reaches the services unchanged.
 */
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

    private static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void withNothingExportingNoSpanIsRecordedAndTheCallersContextPassesThroughUnchanged() {
        try (OpenTelemetrySdk sdk = new TracingFactory().openTelemetry(new TracingProperties(), List.of())) {
            Tracing tracing = new TracingFactory().tracing(sdk, new TracingProperties(), List.of());
            Map<String, String> sent = new HashMap<>();
            Span server = tracing.startServer("POST /mcp", Map.of("traceparent", TRACEPARENT)::get);
            try (Scope ignored = server.makeCurrent()) {
                Span step = tracing.startInternal("transport.auth");
                assertFalse(step.isRecording());
                step.end();
                tracing.inSpan("gate.handler", () -> {
                    assertEquals(server.getSpanContext(), Span.current().getSpanContext(), "the caller's context");
                    Span facade = tracing.startClient("facade wiki");
                    assertFalse(facade.isRecording());
                    tracing.inject(facade, sent::put);
                    facade.end();
                    return null;
                });
            }
            server.end();
            assertFalse(server.isRecording());
            assertEquals(Map.of("traceparent", TRACEPARENT), sent, "the caller's own traceparent, not a new span's");

            Map<String, String> none = new HashMap<>();
            Span untraced = tracing.startServer("POST /mcp", name -> null);
            tracing.inject(untraced, none::put);
            assertFalse(untraced.getSpanContext().isValid(), "no caller trace: none made up");
            assertEquals(Map.of(), none);
        }
    }

    @Test
    void withAnExporterSpansAreRecordedAndTheServicesSeeTheGatewaysSpan() {
        InMemorySpanExporter exporter = InMemorySpanExporter.create();
        try (OpenTelemetrySdk sdk = new TracingFactory().openTelemetry(new TracingProperties(), List.of(exporter))) {
            Tracing tracing = new TracingFactory().tracing(sdk, new TracingProperties(), List.of(exporter));
            Map<String, String> sent = new HashMap<>();
            Span server = tracing.startServer("POST /mcp", Map.of("traceparent", TRACEPARENT)::get);
            try (Scope ignored = server.makeCurrent()) {
                tracing.startInternal("transport.auth").end();
                tracing.inSpan("gate.handler", () -> {
                    Span facade = tracing.startClient("facade wiki");
                    tracing.inject(facade, sent::put);
                    facade.end();
                    return null;
                });
            }
            server.end();
            assertEquals(List.of("transport.auth", "facade wiki", "gate.handler", "POST /mcp"),
                    exporter.getFinishedSpanItems().stream().map(SpanData::getName).toList());
            assertTrue(sent.get("traceparent").startsWith("00-4bf92f3577b34da6a3ce929d0e0e4736-"));
            assertNotEquals(TRACEPARENT, sent.get("traceparent"), "the facade span's own id");
        }
    }
}
