package dev.gatehouse.gateway.console;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.time.Duration;

/**
 * The operator console ({@code gatehouse.console.*}, README "Console"):
 * <ul>
 * <li>{@code enabled} ({@code GATEHOUSE_CONSOLE_ENABLED}, default false): sign-in through the OpenID Connect client
 * {@code micronaut.security.oauth2.clients.console} (issuer, client id and secret: {@code GATEHOUSE_CONSOLE_ISSUER},
 * {@code GATEHOUSE_CONSOLE_CLIENT_ID}, {@code GATEHOUSE_CONSOLE_CLIENT_SECRET}); off, the console only says so;</li>
 * <li>{@code operator-claim} (default {@code gatehouse_roles}) and {@code operator-role} (default {@code operator}):
 * an operator is a user whose ID token carries the claim with that value (a string, or a list holding it); anyone
 * else is refused with 403 and gets no session;</li>
 * <li>{@code idle-timeout} (15 min) and {@code session-lifetime} (8 h): a console session ends after that long without
 * a request, or that long after sign-in, whichever comes first.</li>
 * </ul>
 */
@ConfigurationProperties(ConsoleProperties.PREFIX)
public class ConsoleProperties {

    public static final String PREFIX = "gatehouse.console";

    private boolean enabled;
    private String operatorClaim = "gatehouse_roles";
    private String operatorRole = "operator";
    private Duration idleTimeout = Duration.ofMinutes(15);
    private Duration sessionLifetime = Duration.ofHours(8);

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getOperatorClaim() {
        return operatorClaim;
    }

    public void setOperatorClaim(String operatorClaim) {
        this.operatorClaim = operatorClaim;
    }

    public String getOperatorRole() {
        return operatorRole;
    }

    public void setOperatorRole(String operatorRole) {
        this.operatorRole = operatorRole;
    }

    public Duration getIdleTimeout() {
        return idleTimeout;
    }

    public void setIdleTimeout(Duration idleTimeout) {
        this.idleTimeout = idleTimeout;
    }

    public Duration getSessionLifetime() {
        return sessionLifetime;
    }

    public void setSessionLifetime(Duration sessionLifetime) {
        this.sessionLifetime = sessionLifetime;
    }
}
