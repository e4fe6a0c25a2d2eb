package dev.gatehouse.gateway.telemetry;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.util.Optional;

/** {@code gatehouse.tracing}: where spans go. Off by default: spans are made and propagated, but not exported. */
@ConfigurationProperties("gatehouse.tracing")
public class TracingProperties {

    private String otlpEndpoint = "";
    private String serviceName = "gatehouse-gateway";

    /**
     * {@code otlp-endpoint} ({@code GATEHOUSE_OTLP_ENDPOINT}): the OTLP/HTTP traces URL of a collector, e.g.
     * {@code http://127.0.0.1:4318/v1/traces}. Empty (the default): no exporter.
     */
    public Optional<String> getOtlpEndpoint() {
        return Optional.of(otlpEndpoint).filter(s -> !s.isBlank());
    }

    public void setOtlpEndpoint(String otlpEndpoint) {
        this.otlpEndpoint = otlpEndpoint == null ? "" : otlpEndpoint;
    }

    /** {@code service-name}: the {@code service.name} resource attribute. Default {@code gatehouse-gateway}. */
    public String getServiceName() {
        return serviceName;
    }

    public void setServiceName(String serviceName) {
        this.serviceName = serviceName;
    }
}
