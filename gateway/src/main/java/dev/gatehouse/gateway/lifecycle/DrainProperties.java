package dev.gatehouse.gateway.lifecycle;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.time.Duration;

/** {@code gatehouse.drain}: graceful shutdown of {@code /mcp}. */
@ConfigurationProperties("gatehouse.drain")
public class DrainProperties {

    private Duration deadline = Duration.ofSeconds(20);

    /**
     * {@code deadline}: how long shutdown waits for in-flight {@code /mcp} requests before the server stops anyway.
     * Default 20 s, inside Kubernetes' default 30 s termination grace period. Must be positive.
     */
    public Duration getDeadline() {
        return deadline;
    }

    public void setDeadline(Duration deadline) {
        if (deadline == null || deadline.isNegative() || deadline.isZero()) {
            throw new IllegalArgumentException("gatehouse.drain.deadline must be positive, got " + deadline);
        }
        this.deadline = deadline;
    }
}
