package dev.gatehouse.gateway.mcp.guard;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * DNS-rebinding protection for {@code /mcp} (MCP transports spec, "Security Warning"), one
 * rule for both protocol eras: an {@code Origin} header must be on the allow-list ({@code Origin: null} never is),
 * and the {@code Host} header must always be on the host allow-list, so a rebinding page that sends no Origin is
 * refused too. Patterns are exact, or end in {@code :*} for any port.
 */
public final class OriginGuard {

    private final List<String> origins;
    private final List<String> hosts;

    /**
     * @param origins allowed origins, e.g. {@code http://127.0.0.1:*}
     * @param hosts   allowed Host values, e.g. {@code localhost:*}; {@code *} allows any
     */
    public OriginGuard(List<String> origins, List<String> hosts) {
        this.origins = origins.stream().map(o -> o.toLowerCase(Locale.ROOT)).toList();
        this.hosts = hosts.stream().map(h -> h.toLowerCase(Locale.ROOT)).toList();
    }

    /**
     * @param origin every {@code Origin} header value
     * @param host   the {@code Host} header, if any
     * @return HTTP 403 when either is not allowed; empty otherwise
     */
    public Optional<Rejection> check(List<String> origin, Optional<String> host) {
        if (origin.size() > 1 || (origin.size() == 1 && !matches(origins, origin.get(0)))) {
            return Optional.of(forbidden("origin not allowed"));
        }
        if (!hosts.contains("*") && (host.isEmpty() || !matches(hosts, host.get()))) {
            return Optional.of(forbidden("host not allowed"));
        }
        return Optional.empty();
    }

    private static boolean matches(List<String> patterns, String value) {
        String candidate = value.trim().toLowerCase(Locale.ROOT);
        for (String pattern : patterns) {
            if (pattern.equals(candidate)) {
                return true;
            }
            if (pattern.endsWith(":*")) {
                int colon = pattern.length() - 1; // the prefix is the pattern up to and with its colon
                if (candidate.length() > colon && candidate.regionMatches(0, pattern, 0, colon)
                        && digits(candidate, colon)) {
                    return true;
                }
                if (candidate.length() == colon - 1 && pattern.startsWith(candidate)) { // no port at all
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether every character of {@code text} from {@code from} on is a digit (checked per request: no stream). */
    private static boolean digits(String text, int from) {
        for (int i = from; i < text.length(); i++) {
            if (!Character.isDigit(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** 403 before the body was read: the connection is closed so no unread bytes are taken for a next request. */
    private static Rejection forbidden(String message) {
        return new Rejection(403, Optional.of(Rejection.INVALID_REQUEST), message, Optional.empty(),
                java.util.Map.of("Connection", "close"));
    }
}
