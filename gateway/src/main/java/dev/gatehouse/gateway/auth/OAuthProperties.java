package dev.gatehouse.gateway.auth;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * How outside agents' OAuth 2.1 access tokens are checked ({@code gatehouse.oauth.*}). Exactly one key source is
 * used: {@code jwks-url} when set (the authorization server's keys, fetched and cached, a new {@code kid} fetched
 * on first sight), else {@code dev-hs256-secret-file} (a development shortcut, off unless set: a shared secret of at
 * least 256 bits in a file). With neither, outside agents cannot authenticate. Either needs {@code issuer}.
 */
@ConfigurationProperties(OAuthProperties.PREFIX)
public class OAuthProperties {

    public static final String PREFIX = "gatehouse.oauth";
    /** The leeway for {@code exp}, {@code nbf} and {@code iat} unless configured. */
    public static final Duration DEFAULT_CLOCK_SKEW = Duration.ofSeconds(5);
    /** The largest leeway accepted in configuration; more would let expired tokens through for too long. */
    public static final Duration MAX_CLOCK_SKEW = Duration.ofSeconds(60);

    /** The shortest time between two JWKS fetches for unknown key ids unless configured. */
    public static final Duration DEFAULT_JWKS_REFETCH_INTERVAL = Duration.ofSeconds(30);

    private Optional<String> issuer = Optional.empty();
    private Optional<String> audience = Optional.empty();
    private Optional<String> jwksUrl = Optional.empty();
    private Optional<Path> devHs256SecretFile = Optional.empty();
    private Optional<String> scope = Optional.empty();
    private Duration jwksRefetchInterval = DEFAULT_JWKS_REFETCH_INTERVAL;
    private String ceilingClaim = "t3_mode_ceiling";
    private Duration clockSkew = DEFAULT_CLOCK_SKEW;

    /**
     * The authorization server: the required {@code iss}, and the one entry of {@code authorization_servers} in the
     * protected-resource metadata, where clients find its RFC 8414 metadata. Unset: no outside agents.
     */
    public Optional<String> getIssuer() {
        return issuer;
    }

    public void setIssuer(Optional<String> issuer) {
        this.issuer = issuer.filter(i -> !i.isBlank());
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

    /**
     * Development only: a file holding a shared HS256 secret (UTF-8, at least 32 bytes, surrounding whitespace
     * ignored), for tokens minted on this machine without an authorization server. Ignored when {@code jwks-url}
     * is set; never set it in a deployment.
     */
    public Optional<Path> getDevHs256SecretFile() {
        return devHs256SecretFile;
    }

    public void setDevHs256SecretFile(Optional<Path> devHs256SecretFile) {
        this.devHs256SecretFile = devHs256SecretFile.filter(path -> !path.toString().isBlank());
    }

    /**
     * The OAuth scope an access token must hold to reach {@code /mcp}; when set it is this resource's
     * {@code scopes_supported} (RFC 9728) and the {@code scope} of every 401 challenge, so a client asks for it.
     * Unset: no scope is required or advertised.
     */
    public Optional<String> getScope() {
        return scope;
    }

    public void setScope(Optional<String> scope) {
        this.scope = scope.map(String::trim).filter(s -> !s.isEmpty());
        if (this.scope.filter(s -> s.contains(" ") || s.contains("\"")).isPresent()) {
            throw new IllegalArgumentException(PREFIX + ".scope must be one scope token");
        }
    }

    /**
     * The shortest time between two fetches of the JWKS caused by tokens whose {@code kid} is not cached (default
     * 30 s): a rotated key is fetched on first sight, and a flood of unknown key ids costs at most one fetch per
     * interval.
     */
    public Duration getJwksRefetchInterval() {
        return jwksRefetchInterval;
    }

    public void setJwksRefetchInterval(Duration jwksRefetchInterval) {
        if (jwksRefetchInterval == null || jwksRefetchInterval.isNegative() || jwksRefetchInterval.isZero()) {
            throw new IllegalArgumentException(PREFIX + ".jwks-refetch-interval must be positive");
        }
        this.jwksRefetchInterval = jwksRefetchInterval;
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
