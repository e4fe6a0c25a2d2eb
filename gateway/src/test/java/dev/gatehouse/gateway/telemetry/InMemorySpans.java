package dev.gatehouse.gateway.telemetry;

import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import jakarta.inject.Singleton;

/** An in-memory span exporter for tests that set {@code test.in-memory-spans}; the tracing factory picks it up. */
@Factory
@Requires(property = "test.in-memory-spans", value = "true")
class InMemorySpans {

    @Singleton
    InMemorySpanExporter exporter() {
        return InMemorySpanExporter.create();
    }
}
