package dev.gatehouse.gateway.audit.shipping;

import dev.gatehouse.gateway.SettingChecks;
import io.micronaut.context.annotation.ConfigurationProperties;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code gatehouse.audit.shipping}: sending the decision log to an OPA-compatible decision-log service
 * ({@link DecisionLogShipper}, which reads the log's own files). Off unless {@code url} is set. Every setter rejects
 * a value that makes no sense with {@link IllegalArgumentException}, so a bad configuration fails at start-up.
 */
@ConfigurationProperties(ShippingConfiguration.PREFIX)
public class ShippingConfiguration {

    public static final String PREFIX = "gatehouse.audit.shipping";

    private URI url;
    private String credentialFile = "";
    private int batchMaxRecords = 500;
    private Duration batchDelay = Duration.ofSeconds(1);
    private Duration timeout = Duration.ofSeconds(10);
    private Duration minBackoff = Duration.ofSeconds(1);
    private Duration maxBackoff = Duration.ofSeconds(60);

    /**
     * {@code url} ({@code GATEHOUSE_DECISION_LOG_URL}): where batches are POSTed, the full URL of the service's
     * decision-log resource as OPA's {@code decision_logs} plugin would use it (e.g. {@code https://logs/logs}).
     * Unset (the default): nothing is shipped.
     */
    public Optional<URI> getUrl() {
        return Optional.ofNullable(url);
    }

    public void setUrl(String url) {
        this.url = url == null || url.isBlank() ? null : URI.create(url);
        if (this.url != null && !(this.url.getScheme().equals("http") || this.url.getScheme().equals("https"))) {
            throw new IllegalArgumentException(PREFIX + ".url must be http or https, got " + url);
        }
    }

    /** {@code credential-file}: a file holding a bearer token sent as {@code Authorization}; empty: none. */
    public Optional<Path> getCredentialFile() {
        return credentialFile.isBlank() ? Optional.empty() : Optional.of(Path.of(credentialFile));
    }

    public void setCredentialFile(String credentialFile) {
        this.credentialFile = credentialFile == null ? "" : credentialFile;
    }

    /** {@code batch-max-records}: records per POST, at most. Default 500. */
    public int getBatchMaxRecords() {
        return batchMaxRecords;
    }

    public void setBatchMaxRecords(int batchMaxRecords) {
        this.batchMaxRecords = SettingChecks.positive(PREFIX + ".batch-max-records", batchMaxRecords);
    }

    /** {@code batch-delay}: the longest a record of the live file waits for others to join its batch. Default 1 s. */
    public Duration getBatchDelay() {
        return batchDelay;
    }

    public void setBatchDelay(Duration batchDelay) {
        this.batchDelay = SettingChecks.positive(PREFIX + ".batch-delay", batchDelay);
    }

    /** {@code timeout}: connect and whole-request deadline of one POST. Default 10 s. */
    public Duration getTimeout() {
        return timeout;
    }

    public void setTimeout(Duration timeout) {
        this.timeout = SettingChecks.positive(PREFIX + ".timeout", timeout);
    }

    /** {@code min-backoff}: the wait after the first failed POST; doubled per failure. Default 1 s. */
    public Duration getMinBackoff() {
        return minBackoff;
    }

    public void setMinBackoff(Duration minBackoff) {
        this.minBackoff = SettingChecks.positive(PREFIX + ".min-backoff", minBackoff);
    }

    /** {@code max-backoff}: the longest wait between two attempts. Default 60 s. */
    public Duration getMaxBackoff() {
        return maxBackoff;
    }

    public void setMaxBackoff(Duration maxBackoff) {
        this.maxBackoff = SettingChecks.positive(PREFIX + ".max-backoff", maxBackoff);
    }
}
