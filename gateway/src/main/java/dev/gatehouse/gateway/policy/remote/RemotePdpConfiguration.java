package dev.gatehouse.gateway.policy.remote;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.time.Duration;

/**
 * Settings of the remote PDP (an OPA server, usually a sidecar), under {@code gatehouse.policy.remote}.
 */
@ConfigurationProperties(RemotePdpConfiguration.PREFIX)
public class RemotePdpConfiguration {

    public static final String PREFIX = "gatehouse.policy.remote";

    private String url = "http://127.0.0.1:8181";
    private Duration deadline = Duration.ofMillis(500);

    /** Base URL of the OPA server, without {@code /v1/data}. Default {@code http://127.0.0.1:8181}. */
    public String getUrl() {
        return url;
    }

    public void setUrl(String url) {
        this.url = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    /**
     * The whole time one evaluation may take (connect, send, OPA's evaluation, read); past it the call fails with
     * {@code timeout} and is denied. Default 500 ms.
     */
    public Duration getDeadline() {
        return deadline;
    }

    public void setDeadline(Duration deadline) {
        this.deadline = deadline;
    }
}
