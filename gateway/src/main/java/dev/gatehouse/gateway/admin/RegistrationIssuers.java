package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.auth.OAuthProperties;
import jakarta.inject.Singleton;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What a registration's {@code issuer} may be (docs/domain.md §1): a token's {@code iss} is compared with it exactly,
 * so anything that cannot be an OAuth issuer could only register a pair no token ever matches. An issuer identifier
 * (RFC 8414 §2) is an absolute {@code https} URL with a host and no query or fragment; without user information (the
 * identifier is public, named in metadata); and without a trailing {@code /}, which RFC 8414 §3.1 removes to find the
 * metadata, so {@code https://as.example/} is the same server as {@code https://as.example} and only one of them
 * can be its tokens' {@code iss}. For local development and tests {@code http} is accepted on a loopback host
 * ({@code localhost}, {@code 127.0.0.0/8}, {@code [::1]}: the local authorization server of {@code make run}, a
 * mock-oauth2-server). The issuer this gateway is configured to trust ({@code gatehouse.oauth.issuer}) is accepted
 * as it is, whatever its form: its tokens carry exactly that.
 */
@Singleton
class RegistrationIssuers {

    private static final Pattern LOOPBACK = Pattern.compile("localhost|127(?:\\.[0-9]{1,3}){3}|\\[::1\\]");

    private final OAuthProperties oauth;

    RegistrationIssuers(OAuthProperties oauth) {
        this.oauth = oauth;
    }

    /** Why {@code issuer} cannot be a registration's issuer, reported on {@code issuer}; empty when it can. */
    Optional<FieldProblem> problem(String issuer) {
        if (oauth.getIssuer().filter(issuer::equals).isPresent()) {
            return Optional.empty();
        }
        URI uri;
        try {
            uri = new URI(issuer);
        } catch (URISyntaxException e) {
            return refused("It is not a URL.");
        }
        String authority = uri.getRawAuthority();
        if (authority == null || authority.isEmpty() || authority.contains("@")) {
            return refused("It must be a URL naming a host, without user information.");
        }
        // java.net.URI names no host for a name it does not take as a server's (an '_' in it): the authority's.
        String host = uri.getHost() != null ? uri.getHost() : authority.replaceFirst(":[0-9]*$", "");
        boolean loopback = LOOPBACK.matcher(host).matches();
        if (!"https".equals(uri.getScheme()) && !("http".equals(uri.getScheme()) && loopback)) {
            return refused("It must be an https URL (http only on a loopback host: localhost, 127.0.0.1, [::1]).");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            return refused("It may have no query and no fragment.");
        }
        if (uri.getRawPath().endsWith("/")) {
            return refused("It may not end in '/': the same server's tokens name it without (RFC 8414 §3.1).");
        }
        return Optional.empty();
    }

    private static Optional<FieldProblem> refused(String why) {
        return Optional.of(FieldProblem.invalid("issuer", "Not an OAuth issuer (RFC 8414 §2): " + why
                + " Write it exactly as the tokens' iss."));
    }
}
