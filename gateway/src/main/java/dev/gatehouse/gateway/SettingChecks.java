package dev.gatehouse.gateway;

import java.time.Duration;

/**
 * The checks configuration setters share, so a bad value fails at start-up with the same words whatever the setting:
 * {@code <key> must be positive, not <value>}. Each returns the value it was given when it passes.
 */
public final class SettingChecks {

    private SettingChecks() {
    }

    /**
     * @param key the setting's full key, e.g. {@code gatehouse.audit.max-files}
     * @throws IllegalArgumentException when {@code value} is zero or negative
     */
    public static int positive(String key, int value) {
        return (int) positive(key, (long) value);
    }

    /** @throws IllegalArgumentException when {@code value} is zero or negative */
    public static long positive(String key, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(key + " must be positive, not " + value);
        }
        return value;
    }

    /** @throws IllegalArgumentException when {@code value} is missing, zero or negative */
    public static Duration positive(String key, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(key + " must be a positive duration, not " + value);
        }
        return value;
    }
}
