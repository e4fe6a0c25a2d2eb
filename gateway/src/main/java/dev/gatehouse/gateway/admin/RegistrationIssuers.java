package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.Utf8;
import dev.gatehouse.gateway.auth.OAuthProperties;
import jakarta.inject.Singleton;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a registration's {@code issuer} may be (docs/domain.md §1): a token's {@code iss} is compared with it exactly,
 * so anything that cannot be an OAuth issuer could only register a pair no token ever matches. An issuer identifier
 * (RFC 8414 §2) is an absolute {@code https} URL with a host and no query or fragment; without user information (the
 * identifier is public, named in metadata); and without a trailing {@code /}, which RFC 8414 §3.1 removes to find the
 * metadata, so {@code https://as.example/} is the same server as {@code https://as.example} and only one of them can be
 * its tokens' {@code iss}. For local development and tests {@code http} is accepted on a loopback host
 * ({@code localhost}, {@code 127.0.0.0/8}, {@code [::1]}: the local authorization server of {@code make run}, a
 * mock-oauth2-server). The host is ASCII (a name, IPv4 address or bracketed IPv6 address; an internationalized name in
 * its A-label form, as DNS and the token carry it), a port is 1 to 65535, and no character anywhere is a control, a
 * bidirectional control (Unicode Bidi_Control, U+202E, U+2066–U+2069), a space or other separator, default-ignorable or
 * otherwise not printable (Unicode categories C and Z, {@link InvisibleCharacters#notPrintable}), written or
 * percent-encoded in the path ({@code %E2%80%AE}, {@code %00}), whose percent-encoded bytes are UTF-8: the operator
 * reads the issuer on the console and in the audit, and such a character would make one issuer look like another. Every
 * refusal states the forms accepted ({@link #FORMS}). The issuer this gateway is configured to trust
 * ({@code gatehouse.oauth.issuer}) is accepted as it is, whatever its form: its tokens carry exactly that.
 */
@Singleton
class RegistrationIssuers {

    /** The forms an issuer is accepted in, as every refusal states them. */
    static final String FORMS = "An issuer is https://<host>[:<port>][/<path>], or http://… on a loopback host"
            + " (localhost, 127.0.0.0/8, [::1]): the host in ASCII letters, digits, '-', '.' and '_' (an"
            + " internationalized name in its A-label form, xn--…) or an IP address ([…] for IPv6); the port a number"
            + " from 1 to 65535 without a leading zero; the path not ending in '/', its percent-encoded bytes UTF-8;"
            + " no user information, query or fragment; and no space, control, bidirectional-control, invisible or"
            + " other non-printable character anywhere, written or percent-encoded. Write it exactly as the tokens'"
            + " iss.";

    private static final Pattern LOOPBACK = Pattern.compile("localhost|127(?:\\.[0-9]{1,3}){3}|\\[::1\\]");

    /** An authority's host and the rest after it, which is empty or {@code :<port>}. */
    private static final Pattern AUTHORITY = Pattern.compile("(?<host>\\[[^\\]]*\\]|[^:]*)(?<rest>.*)");

    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9._-]+|\\[[0-9A-Fa-f:.]+\\]");

    private static final Pattern PORT = Pattern.compile(":[1-9][0-9]{0,4}");

    private final OAuthProperties oauth;

    RegistrationIssuers(OAuthProperties oauth) {
        this.oauth = oauth;
    }

    /** Why {@code issuer} cannot be a registration's issuer, reported on {@code issuer}; empty when it can. */
    Optional<FieldProblem> problem(String issuer) {
        if (oauth.getIssuer().filter(issuer::equals).isPresent()) {
            return Optional.empty();
        }
        if (issuer.codePoints().anyMatch(InvisibleCharacters::notPrintable)) {
            return refused("It holds a space, control, bidirectional-control, invisible or other non-printable"
                    + " character.");
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
        // Read from the authority itself: java.net.URI names no host for a name it does not take as a server's (an
        // '_' or a non-ASCII letter in it), and takes any number of digits as a port.
        Matcher parts = AUTHORITY.matcher(authority);
        parts.matches(); // always: any text is a host (perhaps empty) and a rest
        String host = parts.group("host");
        if (!HOST.matcher(host).matches()) {
            return refused("Its host is neither ASCII letters, digits, '-', '.' and '_' nor an IP address.");
        }
        String rest = parts.group("rest");
        if (!rest.isEmpty() && (!PORT.matcher(rest).matches() || Integer.parseInt(rest.substring(1)) > 65_535)) {
            return refused("Its port is not a number from 1 to 65535.");
        }
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
        // The console and the audit may show the path decoded: what its escapes stand for is read as written text is.
        Optional<String> path = decoded(uri.getRawPath());
        if (path.isEmpty()) {
            return refused("Its path's percent-encoded bytes are not UTF-8.");
        }
        if (path.get().codePoints().anyMatch(InvisibleCharacters::notPrintable)) {
            return refused("Its path holds a percent-encoded space, control, bidirectional-control, invisible or"
                    + " other non-printable character.");
        }
        return Optional.empty();
    }

    /**
     * {@code rawPath} with its percent-encoded bytes decoded as UTF-8 (java.net.URI has already checked that every
     * {@code %} is followed by two hex digits); empty when they are not well-formed UTF-8.
     */
    private static Optional<String> decoded(String rawPath) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(rawPath.length());
        int written = 0;
        for (int at = rawPath.indexOf('%'); at >= 0; at = rawPath.indexOf('%', written)) {
            bytes.writeBytes(rawPath.substring(written, at).getBytes(StandardCharsets.UTF_8));
            bytes.write(Integer.parseInt(rawPath, at + 1, at + 3, 16));
            written = at + 3;
        }
        bytes.writeBytes(rawPath.substring(written).getBytes(StandardCharsets.UTF_8));
        return Utf8.decoded(bytes.toByteArray());
    }

    private static Optional<FieldProblem> refused(String why) {
        return Optional.of(FieldProblem.invalid("issuer", "Not an OAuth issuer (RFC 8414 §2): " + why + " " + FORMS));
    }
}
