package dev.gatehouse.gateway.mcp;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Transport limits and allow-lists of {@code /mcp} ({@code gatehouse.mcp.*}).
 */
@ConfigurationProperties(McpProperties.PREFIX)
public class McpProperties {

    public static final String PREFIX = "gatehouse.mcp";

    private int maxRequestBytes = 1024 * 1024;
    private int maxJsonDepth = 64;
    private List<String> allowedOrigins = List.of("http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*");
    private List<String> allowedHosts = List.of("127.0.0.1:*", "localhost:*", "[::1]:*");
    private Optional<String> requestStateKey = Optional.empty();
    private Duration sessionIdleTimeout = Duration.ofHours(1);
    private int maxSessionsPerCaller = 64;

    /** Largest accepted request body in bytes (default 1 MiB); more is HTTP 413 before parsing or auth. */
    public int getMaxRequestBytes() {
        return maxRequestBytes;
    }

    public void setMaxRequestBytes(int maxRequestBytes) {
        this.maxRequestBytes = maxRequestBytes;
    }

    /** Deepest accepted JSON nesting of a request (default 64); deeper is JSON-RPC -32600. */
    public int getMaxJsonDepth() {
        return maxJsonDepth;
    }

    public void setMaxJsonDepth(int maxJsonDepth) {
        this.maxJsonDepth = maxJsonDepth;
    }

    /**
     * Origins browsers may call from: exact {@code scheme://host[:port]} or {@code scheme://host:*} for any port.
     * A request with another Origin, or {@code Origin: null}, is HTTP 403.
     */
    public List<String> getAllowedOrigins() {
        return allowedOrigins;
    }

    public void setAllowedOrigins(List<String> allowedOrigins) {
        this.allowedOrigins = List.copyOf(allowedOrigins);
    }

    /**
     * Host header values accepted ({@code host[:port]} or {@code host:*}); another Host is HTTP 403 (DNS rebinding).
     * Set to {@code ["*"]} only behind a proxy that fixes Host.
     */
    public List<String> getAllowedHosts() {
        return allowedHosts;
    }

    public void setAllowedHosts(List<String> allowedHosts) {
        this.allowedHosts = List.copyOf(allowedHosts);
    }

    /**
     * Base64 HMAC key (at least 32 bytes) sealing 2026-07-28 request state; replicas behind one load balancer need
     * the same key. When absent, a random key is made at start-up.
     */
    public Optional<String> getRequestStateKey() {
        return requestStateKey;
    }

    public void setRequestStateKey(Optional<String> requestStateKey) {
        this.requestStateKey = requestStateKey;
    }

    /** How long a handshake-era session may go unused before its binding is forgotten (default 1 h). */
    public Duration getSessionIdleTimeout() {
        return sessionIdleTimeout;
    }

    public void setSessionIdleTimeout(Duration sessionIdleTimeout) {
        this.sessionIdleTimeout = sessionIdleTimeout;
    }

    /**
     * How many handshake-era sessions one caller may hold on a replica at once (default 64): the SDK keeps each in
     * memory with what its initialize sent. One more initialize is 429 until the caller ends one ({@code DELETE}) or
     * one has been idle for {@link #getSessionIdleTimeout()}.
     */
    public int getMaxSessionsPerCaller() {
        return maxSessionsPerCaller;
    }

    public void setMaxSessionsPerCaller(int maxSessionsPerCaller) {
        this.maxSessionsPerCaller = maxSessionsPerCaller;
    }
}
