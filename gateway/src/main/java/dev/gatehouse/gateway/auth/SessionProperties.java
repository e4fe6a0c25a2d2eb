package dev.gatehouse.gateway.auth;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.time.Duration;

/** Thread callers' sessions ({@code gatehouse.sessions.*}). */
@ConfigurationProperties(SessionProperties.PREFIX)
public class SessionProperties {

    public static final String PREFIX = "gatehouse.sessions";

    private Duration ttl = Duration.ofHours(24);

    /** How long a minted token works (default 24 h); the host attaches a new session after that. */
    public Duration getTtl() {
        return ttl;
    }

    public void setTtl(Duration ttl) {
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("gatehouse.sessions.ttl must be positive");
        }
        this.ttl = ttl;
    }
}
