package dev.gatehouse.gateway.policy.embedded;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.time.Duration;
import java.util.Optional;

/**
 * An OPA-compatible bundle service the embedded PDP polls, under {@code gatehouse.policy.bundle-service}; the
 * names follow OPA's {@code services} and {@code bundles} configuration ({@code url}, {@code resource},
 * {@code polling.min_delay_seconds}, {@code polling.max_delay_seconds}, a bearer {@code credentials}). Unset
 * {@code url}: the bundle file is watched instead.
 */
@ConfigurationProperties(BundleServiceConfiguration.PREFIX)
public class BundleServiceConfiguration {

    public static final String PREFIX = "gatehouse.policy.bundle-service";

    private String url;
    private String resource = "bundles/bundle.tar.gz";
    private String credentialFile;
    private Duration minDelay = Duration.ofSeconds(60);
    private Duration maxDelay = Duration.ofSeconds(120);
    private Duration requestTimeout = Duration.ofSeconds(30);

    /** The service's base URL, e.g. {@code https://bundles.example.com}; empty means no service. */
    public Optional<String> getUrl() {
        return Optional.ofNullable(url).filter(u -> !u.isBlank());
    }

    public void setUrl(String url) {
        this.url = url;
    }

    /** The bundle's path under the URL, as OPA's {@code bundles.<name>.resource}. Default {@code bundles/bundle.tar.gz}. */
    public String getResource() {
        return resource;
    }

    public void setResource(String resource) {
        this.resource = resource;
    }

    /** A file holding the bearer token sent as {@code Authorization: Bearer …}; unset: no credential. */
    public Optional<String> getCredentialFile() {
        return Optional.ofNullable(credentialFile).filter(f -> !f.isBlank());
    }

    public void setCredentialFile(String credentialFile) {
        this.credentialFile = credentialFile;
    }

    /** Shortest wait between polls (OPA {@code min_delay_seconds}). Default 60 s. */
    public Duration getMinDelay() {
        return minDelay;
    }

    public void setMinDelay(Duration minDelay) {
        this.minDelay = minDelay;
    }

    /** Longest wait between polls, and the cap of the back-off after failures (OPA {@code max_delay_seconds}). Default 120 s. */
    public Duration getMaxDelay() {
        return maxDelay;
    }

    public void setMaxDelay(Duration maxDelay) {
        this.maxDelay = maxDelay;
    }

    /** The whole time one download may take (connect, headers, body); past it the poll fails. Default 30 s. */
    public Duration getRequestTimeout() {
        return requestTimeout;
    }

    public void setRequestTimeout(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
    }
}
