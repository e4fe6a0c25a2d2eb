package dev.gatehouse.gateway.telemetry;

import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SdkTracerProviderBuilder;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * The gateway's OpenTelemetry SDK: W3C trace context ({@code traceparent}, {@code tracestate}) in and out, every span
 * sampled when the caller's {@code traceparent} says so or when there is none (parent-based, always on). Spans go to
 * the OTLP/HTTP exporter when {@code gatehouse.tracing.otlp-endpoint} is set (batched), and to any
 * {@link SpanExporter} bean of the application (exported one by one; tests use an in-memory one). Not registered as
 * the global instance.
 *
 * <p>When spans go nowhere (no endpoint, no exporter bean: the default), {@link Tracing} gets propagation alone: no
 * span is recorded, and the caller's trace context passes through unchanged to the services the facades call, as
 * W3C Trace Context asks of an intermediary that does not trace. Recording spans nobody reads cost ≈ 5 % of a
 * gated call's CPU (bench/notes.md).
 */
@Factory
public class TracingFactory {

    @Singleton
    @Bean(preDestroy = "close")
    OpenTelemetrySdk openTelemetry(TracingProperties properties, List<SpanExporter> exporters) {
        SdkTracerProviderBuilder tracing = SdkTracerProvider.builder().setResource(Resource.getDefault().merge(
                Resource.create(Attributes.of(AttributeKey.stringKey("service.name"), properties.getServiceName()))));
        properties.getOtlpEndpoint().ifPresent(endpoint -> tracing.addSpanProcessor(
                BatchSpanProcessor.builder(OtlpHttpSpanExporter.builder().setEndpoint(endpoint).build()).build()));
        exporters.forEach(exporter -> tracing.addSpanProcessor(SimpleSpanProcessor.create(exporter)));
        return OpenTelemetrySdk.builder()
                .setTracerProvider(tracing.build())
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
                .build();
    }

    /** The one tracer: the SDK's when its spans are exported, else propagation alone (see the class comment). */
    @Singleton
    Tracing tracing(OpenTelemetrySdk sdk, TracingProperties properties, List<SpanExporter> exporters) {
        boolean exported = properties.getOtlpEndpoint().isPresent() || !exporters.isEmpty();
        return new Tracing(exported ? sdk : OpenTelemetry.propagating(sdk.getPropagators()));
    }
}
