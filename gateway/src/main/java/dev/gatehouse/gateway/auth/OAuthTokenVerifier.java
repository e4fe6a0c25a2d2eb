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
import com.nimbusds.jwt.proc.ConfigurableJWTProcessor;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import jakarta.inject.Singleton;
import java.net.MalformedURLException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.util.Optional;
import java.util.Set;

/**
 * Checks an outside agent's OAuth 2.1 bearer JWT with Nimbus (the validator under micronaut-security-jwt; used
 * directly because {@code /mcp} is served outside Micronaut's filter chain): signature from the configured JWKS URL
 * or HS256 secret, {@code iss} equal to the configured issuer, {@code aud} containing this gateway's resource,
 * {@code exp} in the future (60 s clock skew), {@code sub} present, and an approved ceiling claim from
 * {@link ModeCeilings#ALL}. Any failure yields empty: the caller answers 401 without saying which check failed.
 */
@Singleton
public class OAuthTokenVerifier {

    private final Optional<ConfigurableJWTProcessor<SecurityContext>> processor;
    private final String issuer;
    private final String ceilingClaim;

    public OAuthTokenVerifier(OAuthProperties oauth, GatewayProperties gateway) {
        this.issuer = oauth.getIssuer();
        this.ceilingClaim = oauth.getCeilingClaim();
        String audience = oauth.getAudience().orElse(gateway.resource());
        this.processor = keySource(oauth).map(keys -> {
            DefaultJWTProcessor<SecurityContext> p = new DefaultJWTProcessor<>();
            // RFC 9068 access tokens are typed at+jwt; plain JWT and untyped tokens are accepted too.
            p.setJWSTypeVerifier(new DefaultJOSEObjectTypeVerifier<>(JOSEObjectType.JWT,
                    new JOSEObjectType("at+jwt"), new JOSEObjectType("application/at+jwt"), null));
            p.setJWSKeySelector(new JWSVerificationKeySelector<>(keys.algorithms(), keys.source()));
            p.setJWTClaimsSetVerifier(new DefaultJWTClaimsVerifier<>(audience,
                    new JWTClaimsSet.Builder().issuer(issuer).build(), Set.of("sub", "exp", ceilingClaim)));
            return p;
        });
    }

    /**
     * @param token the compact JWT from {@code Authorization: Bearer}
     * @return the outside agent, or empty when the token is not a valid access token for this gateway
     */
    public Optional<Authenticated.OutsideAgent> verify(String token) {
        if (processor.isEmpty() || token.chars().filter(c -> c == '.').count() != 2) {
            return Optional.empty();
        }
        try {
            JWTClaimsSet claims = processor.get().process(token, null);
            Object ceiling = claims.getClaim(ceilingClaim);
            if (!(ceiling instanceof String value) || !ModeCeilings.ALL.contains(value)) {
                return Optional.empty();
            }
            return Optional.of(new Authenticated.OutsideAgent(issuer, claims.getSubject(), value));
        } catch (ParseException | BadJOSEException | JOSEException e) {
            return Optional.empty();
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
                        .build();
                return Optional.of(new Keys(source, Set.of(JWSAlgorithm.RS256, JWSAlgorithm.ES256,
                        JWSAlgorithm.PS256, JWSAlgorithm.EdDSA)));
            } catch (MalformedURLException e) {
                throw new IllegalStateException(OAuthProperties.PREFIX + ".jwks-url is not a URL", e);
            }
        }
        return oauth.getHs256Secret().map(secret -> {
            byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
            if (bytes.length < 32) {
                throw new IllegalStateException(OAuthProperties.PREFIX + ".hs256-secret must have at least 256 bits");
            }
            return new Keys(new ImmutableSecret<>(bytes), Set.of(JWSAlgorithm.HS256));
        });
    }
}
