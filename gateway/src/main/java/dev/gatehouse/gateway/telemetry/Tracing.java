package dev.gatehouse.gateway.telemetry;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.util.Collections;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The one tracer of the gateway and the W3C trace-context propagation around it. Span names: {@code POST /mcp}
 * (server, parent = the client's {@code traceparent}), {@code transport.<step>} per pipeline step, {@code gate.<step>}
 * per gate step, {@code facade <service>} (client) per facade exchange, whose {@code traceparent} names it. Made by
 * {@link TracingFactory}: with propagation alone, every span is the caller's context, nothing is recorded and no internal
 * span is started.
 */
public class Tracing {

    /** Instrumentation scope name of every span. */
    public static final String SCOPE = "dev.gatehouse.gateway";

    private final OpenTelemetry otel;
    private final Tracer tracer;
    /**
     * Whether spans are recorded. Without, an internal span would be the current span's context again: starting it
     * reads the thread's context and making it current writes it back, on every step of every call, for nothing.
     */
    private final boolean recording;

    public Tracing(OpenTelemetry otel) {
        this.otel = otel;
        this.tracer = otel.getTracer(SCOPE);
        this.recording = otel.getTracerProvider() != TracerProvider.noop();
    }

    /**
     * Starts the server span of one request, as a child of the trace context its headers carry (none: a new trace).
     *
     * @param header reads one request header by name (null when absent)
     */
    public Span startServer(String name, Function<String, String> header) {
        Context parent = otel.getPropagators().getTextMapPropagator().extract(Context.root(), header, GETTER);
        return tracer.spanBuilder(name).setParent(parent).setSpanKind(SpanKind.SERVER).startSpan();
    }

    /** Starts a client span under the current span; its context goes out through {@link #inject}. */
    public Span startClient(String name) {
        return tracer.spanBuilder(name).setSpanKind(SpanKind.CLIENT).startSpan();
    }

    /** Starts an internal span under the current span; when spans are not recorded, the invalid span. */
    public Span startInternal(String name) {
        return recording ? tracer.spanBuilder(name).startSpan() : Span.getInvalid();
    }

    /** Writes {@code span}'s trace context as W3C headers through {@code setHeader(name, value)}. */
    public void inject(Span span, BiConsumer<String, String> setHeader) {
        otel.getPropagators().getTextMapPropagator().inject(Context.current().with(span), setHeader, SETTER);
    }

    /** Runs {@code work} in an internal span named {@code name}; an exception marks the span as an error. */
    public <T> T inSpan(String name, Supplier<T> work) {
        if (!recording) {
            return work.get();
        }
        Span span = startInternal(name);
        try (Scope ignored = span.makeCurrent()) {
            return work.get();
        } catch (RuntimeException e) {
            span.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
            throw e;
        } finally {
            span.end();
        }
    }

    private static final TextMapGetter<Function<String, String>> GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Function<String, String> carrier) {
            return Collections.emptyList();
        }

        @Override
        public String get(Function<String, String> carrier, String key) {
            return carrier == null ? null : carrier.apply(key);
        }
    };

    private static final TextMapSetter<BiConsumer<String, String>> SETTER =
            (carrier, key, value) -> carrier.accept(key, value);
}
