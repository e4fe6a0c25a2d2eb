package dev.gatehouse.gateway.policy.embedded;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Settings of the embedded (Wasm) PDP, under {@code gatehouse.policy}.
 */
@ConfigurationProperties(EmbeddedPdpConfiguration.PREFIX)
public class EmbeddedPdpConfiguration {

    public static final String PREFIX = "gatehouse.policy";

    private String bundlePath = "target/bundle/bundle.tar.gz";
    private Integer poolSize;
    private Duration decisionDeadline = Duration.ofSeconds(2);

    /**
     * The Wasm bundle file ({@code make bundle}); a relative path is resolved against the working directory.
     * Default {@code target/bundle/bundle.tar.gz}.
     */
    public String getBundlePath() {
        return bundlePath;
    }

    public void setBundlePath(String bundlePath) {
        this.bundlePath = bundlePath;
    }

    /** The bundle file as an absolute path. */
    public Path bundleFile() {
        return Path.of(bundlePath).toAbsolutePath();
    }

    /**
     * Policy instances in the pool, each serving one decision at a time. Empty (the default) means one per available
     * processor. Each instance costs ≈150–250 ms to build at start-up and a few MB of memory.
     */
    public Optional<Integer> getPoolSize() {
        return Optional.ofNullable(poolSize);
    }

    public void setPoolSize(Integer poolSize) {
        this.poolSize = poolSize;
    }

    /**
     * A decision's deadline: how long a call waits for a free instance before it is answered as unavailable (a
     * retryable fault, never a denial). Default 2 s.
     */
    public Duration getDecisionDeadline() {
        return decisionDeadline;
    }

    public void setDecisionDeadline(Duration decisionDeadline) {
        this.decisionDeadline = decisionDeadline;
    }

    /** The pool size this configuration gives on this machine. */
    public int poolSize() {
        return Math.max(1, getPoolSize().orElse(Runtime.getRuntime().availableProcessors()));
    }
}
