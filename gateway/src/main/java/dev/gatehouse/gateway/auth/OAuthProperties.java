package dev.gatehouse.gateway.auth;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.time.Duration;
import java.util.Optional;

/**
 * How outside agents' OAuth 2.1 access tokens are checked ({@code gatehouse.oauth.*}). Exactly one key source is
 * used: {@code jwks-url} when set, else {@code hs256-secret} (local use only: a shared secret of at least 256 bits).
 * With neither, outside agents cannot authenticate.
 */
@ConfigurationProperties(OAuthProperties.PREFIX)
public class OAuthProperties {

    public static final String PREFIX = "gatehouse.oauth";
    /** The leeway for {@code exp}, {@code nbf} and {@code iat} unless configured. */
    public static final Duration DEFAULT_CLOCK_SKEW = Duration.ofSeconds(5);
    /** The largest leeway accepted in configuration; more would let expired tokens through for too long. */
    public static final Duration MAX_CLOCK_SKEW = Duration.ofSeconds(60);

    private String issuer = "http://127.0.0.1:8080";
    private Optional<String> audience = Optional.empty();
    private Optional<String> jwksUrl = Optional.empty();
    private Optional<String> hs256Secret = Optional.empty();
    private String ceilingClaim = "t3_mode_ceiling";
    private Duration clockSkew = DEFAULT_CLOCK_SKEW;

    /** The required {@code iss}; also advertised as the authorization server in the resource metadata. */
    public String getIssuer() {
        return issuer;
    }

    public void setIssuer(String issuer) {
        this.issuer = issuer;
    }

    /** The required {@code aud}; defaults to this gateway's resource URL ({@code <public-url>/mcp}). */
    public Optional<String> getAudience() {
        return audience;
    }

    public void setAudience(Optional<String> audience) {
        this.audience = audience.filter(a -> !a.isBlank());
    }

    /** The issuer's JWKS document; keys are fetched and cached by Nimbus. */
    public Optional<String> getJwksUrl() {
        return jwksUrl;
    }

    public void setJwksUrl(Optional<String> jwksUrl) {
        this.jwksUrl = jwksUrl.filter(url -> !url.isBlank());
    }

    /** A shared HS256 secret (UTF-8, at least 32 bytes) for local tokens; from the environment, never logged. */
    public Optional<String> getHs256Secret() {
        return hs256Secret;
    }

    public void setHs256Secret(Optional<String> hs256Secret) {
        this.hs256Secret = hs256Secret.filter(secret -> !secret.isBlank());
    }

    /** The claim holding the approved ceiling (docs/domain.md §1). */
    public String getCeilingClaim() {
        return ceilingClaim;
    }

    public void setCeilingClaim(String ceilingClaim) {
        this.ceilingClaim = ceilingClaim;
    }

    /**
     * How far this gateway's clock and the issuer's may disagree ({@code clock-skew}, default 5 s, at most 60 s):
     * a token is accepted until {@code exp + clock-skew}, and from {@code nbf - clock-skew} and
     * {@code iat - clock-skew} on.
     */
    public Duration getClockSkew() {
        return clockSkew;
    }

    public void setClockSkew(Duration clockSkew) {
        if (clockSkew == null || clockSkew.isNegative() || clockSkew.compareTo(MAX_CLOCK_SKEW) > 0) {
            throw new IllegalArgumentException(PREFIX + ".clock-skew must be between 0 s and "
                    + MAX_CLOCK_SKEW.toSeconds() + " s, was " + clockSkew);
        }
        this.clockSkew = clockSkew;
    }
}
