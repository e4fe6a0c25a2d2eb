package dev.gatehouse.gateway.policy;

import io.micronaut.context.annotation.ConfigurationProperties;

/**
 * Settings of the decision memo ({@link MemoizingPdp}), under {@code gatehouse.policy.memo}.
 */
@ConfigurationProperties(MemoConfiguration.PREFIX)
public class MemoConfiguration {

    public static final String PREFIX = "gatehouse.policy.memo";

    private boolean enabled = true;
    private long maxEntries = 10_000;
    private int maxInputChars = 8_192;

    /** Whether the embedded PDP's answers are memoised. Default {@code true}; {@code false} evaluates every call. */
    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /**
     * Most entries kept per entry point (decision, visible_tools); past it the least useful are evicted. Default
     * 10,000.
     */
    public long getMaxEntries() {
        return maxEntries;
    }

    public void setMaxEntries(long maxEntries) {
        this.maxEntries = maxEntries;
    }

    /**
     * Longest decision-input JSON, in chars, that is memoised; a longer input (large arguments such as a whole wiki
     * page) is evaluated every time and never held in memory. Default 8,192.
     */
    public int getMaxInputChars() {
        return maxInputChars;
    }

    public void setMaxInputChars(int maxInputChars) {
        this.maxInputChars = maxInputChars;
    }
}
