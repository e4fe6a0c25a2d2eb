package dev.gatehouse.gateway.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.ImmutableSecret;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.DefaultJOSEObjectTypeVerifier;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.ConfigurableJWTProcessor;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import com.nimbusds.jwt.proc.JWTClaimsSetVerifier;
import dev.gatehouse.facts.VocabularyName;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks an outside agent's OAuth 2.1 bearer JWT with Nimbus (the validator under micronaut-security-jwt; used
 * directly because {@code /mcp} is served outside Micronaut's filter chain): signature from the configured JWKS URL
 * (or, for development only, an HS256 secret file), {@code iss} equal to the configured issuer, {@code aud}
 * containing this gateway's resource (RFC 8707: {@code <public-url>/mcp}), {@code sub} present and not blank (only
 * spaces, controls or format characters count as blank), the configured scope when there is one ({@code scope},
 * space-delimited, or {@code scp}), the approved ceiling claim set by the authorization server, and the token times
 * (RFC 7519 §4.1.4–4.1.6, RFC 9068 §4) against this gateway's {@link Clock} with the leeway {@code L} of
 * {@link OAuthProperties#getClockSkew()} (default 5 s, at most 60 s):
 * <ul>
 * <li>{@code exp} is required, and the token is refused from {@code exp + L} on;</li>
 * <li>{@code nbf}, when present, must be at most {@code now + L};</li>
 * <li>{@code iat}, when present, must be at most {@code now + L} (a token issued in the future is refused).</li>
 * </ul>
 * The ceiling claim is checked for its syntax only ({@link VocabularyName}: a string that is an RFC 9110 token of at
 * most 64 characters) and passed on exactly as received; whether it names a ceiling is the policy's decision
 * ({@code ceiling_unknown}, docs/domain.md §1), so an unknown ceiling is a logged denial, not a refused token.
 * Nimbus's own time checks (a fixed 60 s skew against the system clock) are not used. A token that passes every
 * check but the scope is {@link AuthFailure#INSUFFICIENT_SCOPE} (403); any other failure is
 * {@link AuthFailure#INVALID_TOKEN} (401), without saying which check failed.
 *
 * <p>JWKS keys are cached by Nimbus ({@link JWKSourceBuilder}: 5 min, refreshed ahead); a token whose {@code kid} is
 * not cached makes it fetch the set again, at most once per {@link OAuthProperties#getJwksRefetchInterval()}, so a
 * rotated-in key works on first sight and a key id the issuer does not publish is refused.
 */
@Singleton
public class OAuthTokenVerifier {

    private static final Logger LOG = LoggerFactory.getLogger(OAuthTokenVerifier.class);

    private final Optional<ConfigurableJWTProcessor<SecurityContext>> processor;
    private final String issuer;
    private final String ceilingClaim;
    private final Optional<String> scope;

    public OAuthTokenVerifier(OAuthProperties oauth, GatewayProperties gateway) {
        this(oauth, gateway, Clock.systemUTC());
    }

    OAuthTokenVerifier(OAuthProperties oauth, GatewayProperties gateway, Clock clock) {
        Optional<Keys> keySource = keySource(oauth);
        if (keySource.isPresent() && oauth.getIssuer().isEmpty()) {
            throw new IllegalStateException(OAuthProperties.PREFIX + ".issuer is required to accept OAuth tokens");
        }
        this.issuer = oauth.getIssuer().orElse("");
        this.ceilingClaim = oauth.getCeilingClaim();
        this.scope = oauth.getScope();
        String audience = oauth.getAudience().orElse(gateway.resource());
        this.processor = keySource.map(keys -> {
            DefaultJWTProcessor<SecurityContext> p = new DefaultJWTProcessor<>();
            // RFC 9068 access tokens are typed at+jwt; plain JWT and untyped tokens are accepted too.
            p.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(JOSEObjectType.JWT,
                    new JOSEObjectType("at+jwt"), new JOSEObjectType("application/at+jwt"), null));
            p.setJWSKeySelector(new JWSVerificationKeySelector<>(keys.algorithms(), keys.source()));
            p.setJWTClaimsSetVerifier(new TimedClaimsVerifier(clock, oauth.getClockSkew(),
                    new DefaultJWTClaimsVerifier<>(audience, new JWTClaimsSet.Builder().issuer(issuer).build(),
                            Set.of("sub", ceilingClaim))));
            return p;
        });
    }

    /** The outcome of checking one token. */
    public sealed interface Verification {

        /** The outside agent when the token was accepted. */
        Optional<Authenticated.OutsideAgent> agent();

        /** Every check passed. */
        record Verified(Authenticated.OutsideAgent outsideAgent) implements Verification {
            @Override
            public Optional<Authenticated.OutsideAgent> agent() {
                return Optional.of(outsideAgent);
            }
        }

        /** A check failed: {@link AuthFailure#INVALID_TOKEN}, or {@link AuthFailure#INSUFFICIENT_SCOPE}. */
        record Refused(AuthFailure failure) implements Verification {
            @Override
            public Optional<Authenticated.OutsideAgent> agent() {
                return Optional.empty();
            }
        }
    }

    /**
     * @param token the compact JWT from {@code Authorization: Bearer}
     * @return the outside agent, or why the token is refused
     */
    public Verification verify(String token) {
        if (processor.isEmpty() || token.chars().filter(c -> c == '.').count() != 2) {
            return new Verification.Refused(AuthFailure.INVALID_TOKEN);
        }
        try {
            JWTClaimsSet claims = processor.get().process(token, null);
            Object ceiling = claims.getClaim(ceilingClaim);
            // A blank subject would make every such token of the issuer one and the same outside agent.
            if (!(ceiling instanceof String value) || !VocabularyName.wellFormed(value)
                    || blank(claims.getSubject())) {
                return new Verification.Refused(AuthFailure.INVALID_TOKEN);
            }
            if (!holdsScope(claims)) {
                return new Verification.Refused(AuthFailure.INSUFFICIENT_SCOPE);
            }
            return new Verification.Verified(new Authenticated.OutsideAgent(issuer, claims.getSubject(), value));
        } catch (ParseException | BadJOSEException | JOSEException e) {
            return new Verification.Refused(AuthFailure.INVALID_TOKEN);
        }
    }

    /** True for a missing subject or one of spaces (no-break ones too), controls and format characters only. */
    private static boolean blank(String subject) {
        return subject == null || subject.codePoints().allMatch(c -> Character.isWhitespace(c)
                || Character.isSpaceChar(c) || Character.isISOControl(c) || Character.getType(c) == Character.FORMAT);
    }

    /** True when no scope is required, or the token's {@code scope} (space-delimited) or {@code scp} holds it. */
    private boolean holdsScope(JWTClaimsSet claims) {
        if (scope.isEmpty()) {
            return true;
        }
        Object granted = claims.getClaim("scope");
        if (granted == null) {
            granted = claims.getClaim("scp");
        }
        if (granted instanceof String text) {
            return List.of(text.trim().split(" +")).contains(scope.get());
        }
        return granted instanceof List<?> list && list.contains(scope.get());
    }

    /**
     * The token times checked here with the injected clock and leeway, then everything else (issuer, audience,
     * required claims) by Nimbus on the claims without {@code exp} and {@code nbf}, so that Nimbus's fixed skew and
     * system clock play no part.
     */
    private record TimedClaimsVerifier(Clock clock, Duration leeway, DefaultJWTClaimsVerifier<SecurityContext> rest)
            implements JWTClaimsSetVerifier<SecurityContext> {

        @Override
        public void verify(JWTClaimsSet claims, SecurityContext context) throws BadJWTException {
            Instant now = clock.instant();
            Date exp = claims.getExpirationTime();
            if (exp == null) {
                throw new BadJWTException("missing exp");
            }
            if (!now.isBefore(exp.toInstant().plus(leeway))) {
                throw new BadJWTException("expired");
            }
            Date nbf = claims.getNotBeforeTime();
            if (nbf != null && nbf.toInstant().minus(leeway).isAfter(now)) {
                throw new BadJWTException("not yet valid");
            }
            Date iat = claims.getIssueTime();
            if (iat != null && iat.toInstant().minus(leeway).isAfter(now)) {
                throw new BadJWTException("issued in the future");
            }
            rest.verify(new JWTClaimsSet.Builder(claims).expirationTime(null).notBeforeTime(null).build(), context);
        }
    }

    private record Keys(JWKSource<SecurityContext> source, Set<JWSAlgorithm> algorithms) {
    }

    private static Optional<Keys> keySource(OAuthProperties oauth) {
        if (oauth.getJwksUrl().isPresent()) {
            try {
                JWKSource<SecurityContext> source = JWKSourceBuilder
                        .<SecurityContext>create(URI.create(oauth.getJwksUrl().get()).toURL())
                        .retrying(true)
                        .rateLimited(oauth.getJwksRefetchInterval().toMillis())
                        .build();
                return Optional.of(new Keys(source, Set.of(JWSAlgorithm.RS256, JWSAlgorithm.ES256,
                        JWSAlgorithm.PS256, JWSAlgorithm.EdDSA)));
            } catch (MalformedURLException | IllegalArgumentException e) {
                throw new IllegalStateException(OAuthProperties.PREFIX + ".jwks-url is not a URL", e);
            }
        }
        return oauth.getDevHs256SecretFile().map(file -> {
            byte[] bytes;
            try {
                bytes = Files.readString(file, StandardCharsets.UTF_8).trim().getBytes(StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new IllegalStateException(OAuthProperties.PREFIX + ".dev-hs256-secret-file cannot be read", e);
            }
            if (bytes.length < 32) {
                throw new IllegalStateException(OAuthProperties.PREFIX
                        + ".dev-hs256-secret-file must hold at least 256 bits");
            }
            LOG.warn("Outside-agent tokens are checked with the development HS256 secret of {}; "
                    + "a deployment sets {}.jwks-url instead", file, OAuthProperties.PREFIX);
            return new Keys(new ImmutableSecret<>(bytes), Set.of(JWSAlgorithm.HS256));
        });
    }
}
