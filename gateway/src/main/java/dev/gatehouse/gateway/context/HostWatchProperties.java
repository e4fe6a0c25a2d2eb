package dev.gatehouse.gateway.context;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.time.Duration;

/**
 * The watch of the host's thread shells ({@code gatehouse.host.*}, {@link ShellWatch}; docs/domain.md §1).
 * <ul>
 * <li>{@code max-staleness} ({@code GATEHOUSE_HOST_MAX_STALENESS}, default 250 ms, at most 5 s): a thread shell is
 * answered from the watch only while the watch heard from the host within this long; otherwise it is read from the
 * host on the call. {@code 0s} turns the watch off: every shell is read on every call.</li>
 * <li>{@code max-threads} (default 10,000): the most threads whose shells the watch keeps; the least used go first
 * (and are read again when next looked up).</li>
 * </ul>
 */
@ConfigurationProperties("gatehouse.host")
public class HostWatchProperties {

    /** The longest {@link #getMaxStaleness}: beyond it a shell could outlive a run by seconds. */
    public static final Duration MAX_STALENESS = Duration.ofSeconds(5);

    private Duration maxStaleness = Duration.ofMillis(250);
    private int maxThreads = 10_000;

    public Duration getMaxStaleness() {
        return maxStaleness;
    }

    public void setMaxStaleness(Duration maxStaleness) {
        if (maxStaleness.isNegative() || maxStaleness.compareTo(MAX_STALENESS) > 0) {
            throw new IllegalArgumentException("gatehouse.host.max-staleness must be between 0s and "
                    + MAX_STALENESS.toMillis() + "ms, not " + maxStaleness.toMillis() + "ms");
        }
        this.maxStaleness = maxStaleness;
    }

    public int getMaxThreads() {
        return maxThreads;
    }

    public void setMaxThreads(int maxThreads) {
        if (maxThreads < 1) {
            throw new IllegalArgumentException("gatehouse.host.max-threads must be at least 1");
        }
        this.maxThreads = maxThreads;
    }
}
