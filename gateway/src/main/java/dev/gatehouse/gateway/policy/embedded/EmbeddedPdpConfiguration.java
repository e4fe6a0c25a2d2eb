package dev.gatehouse.gateway.policy.embedded;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Settings of the embedded (Wasm) PDP, under {@code gatehouse.policy}.
 */
@ConfigurationProperties(EmbeddedPdpConfiguration.PREFIX)
public class EmbeddedPdpConfiguration {

    public static final String PREFIX = "gatehouse.policy";

    private String bundlePath = "target/bundle/bundle.tar.gz";
    private int poolMax = 4;
    private Duration borrowTimeout = Duration.ofMillis(100);

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
     * Upper bound of policy instances; the pool holds {@code min(available processors, poolMax)}, at least one.
     * Each instance costs ≈150–250 ms to build at start-up and a few MB of memory. Default 4.
     */
    public int getPoolMax() {
        return poolMax;
    }

    public void setPoolMax(int poolMax) {
        this.poolMax = poolMax;
    }

    /** How long a call waits for a free instance before it fails with {@code busy}. Default 100 ms. */
    public Duration getBorrowTimeout() {
        return borrowTimeout;
    }

    public void setBorrowTimeout(Duration borrowTimeout) {
        this.borrowTimeout = borrowTimeout;
    }

    /** The pool size this configuration gives on this machine. */
    public int poolSize() {
        return Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), poolMax));
    }
}
