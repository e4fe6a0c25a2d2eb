package dev.gatehouse.gateway;

import java.util.Enumeration;

/**
 * Whether a request declares its body as JSON in UTF-8: the one rule for every request body the gateway reads (a
 * {@code POST} to {@code /mcp}, a {@code POST} or {@code PUT} to the admin API). The request carries exactly one
 * {@code Content-Type} field line whose value is a {@code media-type} of RFC 9110 §8.3.1, parsed by its grammar:
 * <pre>
 * media-type = type "/" subtype *( OWS ";" OWS [ parameter ] )
 * parameter  = token "=" ( token / quoted-string )
 * </pre>
 * whose type and subtype are {@code application/json} in any case, and whose parameters are at most one
 * {@code charset} (its name in any case) with the value {@code utf-8} in any case, as a token or as a quoted-string
 * (the same value, RFC 9110 §5.6.6); an empty parameter ({@code application/json;}) is grammatical and says nothing.
 * Anything else is not declared JSON in UTF-8: another type, a wildcard, another charset (also an alias of UTF-8 such
 * as {@code utf8}, which is not the registered name), a repeated {@code charset}, any other parameter (RFC 8259
 * §11 defines none), a value that is not the grammar (an unclosed or stray quote, a missing subtype, a control
 * character, a list), an empty value, no field line or two of them.
 * <p>
 * Written here rather than taken from a library, since none on the classpath follows the grammar: Micronaut's route
 * matching refuses a blank before {@code ;}, Jetty takes {@code charset="utf\-8"} for the charset {@code utf\-8},
 * and the MCP SDK compares only what comes before the first {@code ;}.
 */
public final class JsonContentType {

    /** The one value clients send, answered without parsing it. */
    private static final String PLAIN = "application/json";

    private JsonContentType() {
    }

    /**
     * True when {@code fieldLines}, every {@code Content-Type} field line of a request (as
     * {@code HttpServletRequest.getHeaders} gives them), are one value that declares JSON in UTF-8 by the rule above.
     */
    public static boolean declared(Enumeration<String> fieldLines) {
        if (!fieldLines.hasMoreElements()) {
            return false;
        }
        String value = fieldLines.nextElement();
        return !fieldLines.hasMoreElements() && (value.equalsIgnoreCase(PLAIN) || new Reader(value).jsonInUtf8());
    }

    /** One pass over a field value by the grammar; any departure from it makes the value not JSON in UTF-8. */
    private static final class Reader {

        private final String text;
        private int at;
        private final int end;

        Reader(String value) {
            int start = 0;
            int stop = value.length();
            // A field value's leading and trailing whitespace is not part of it (RFC 9110 §5.5).
            while (start < stop && ows(value.charAt(start))) {
                start++;
            }
            while (stop > start && ows(value.charAt(stop - 1))) {
                stop--;
            }
            this.text = value;
            this.at = start;
            this.end = stop;
        }

        boolean jsonInUtf8() {
            String type = token();
            if (!type.equalsIgnoreCase("application") || !take('/') || !token().equalsIgnoreCase("json")) {
                return false;
            }
            boolean charset = false;
            while (at < end) {
                skipOws();
                if (!take(';')) {
                    return false;
                }
                skipOws();
                if (at == end || text.charAt(at) == ';') {
                    continue; // an empty parameter
                }
                String name = token();
                if (name.isEmpty() || !take('=')) {
                    return false;
                }
                String parameterValue = at < end && text.charAt(at) == '"' ? quoted() : token();
                if (parameterValue == null || parameterValue.isEmpty() || !name.equalsIgnoreCase("charset")
                        || charset || !parameterValue.equalsIgnoreCase("utf-8")) {
                    return false;
                }
                charset = true;
            }
            return true;
        }

        /** The token at the cursor (RFC 9110 §5.6.2), possibly empty. */
        private String token() {
            int start = at;
            while (at < end && tchar(text.charAt(at))) {
                at++;
            }
            return text.substring(start, at);
        }

        /** The value of the quoted-string at the cursor (RFC 9110 §5.6.4), quoted-pairs undone; null if malformed. */
        private String quoted() {
            StringBuilder value = new StringBuilder();
            at++; // the opening quote
            while (at < end) {
                char c = text.charAt(at++);
                if (c == '"') {
                    return value.toString();
                }
                if (c == '\\') {
                    if (at == end || !quotable(text.charAt(at))) {
                        return null;
                    }
                    value.append(text.charAt(at++));
                } else if (qdtext(c)) {
                    value.append(c);
                } else {
                    return null;
                }
            }
            return null; // no closing quote
        }

        private boolean take(char c) {
            if (at < end && text.charAt(at) == c) {
                at++;
                return true;
            }
            return false;
        }

        private void skipOws() {
            while (at < end && ows(text.charAt(at))) {
                at++;
            }
        }

        private static boolean ows(char c) {
            return c == ' ' || c == '\t';
        }

        private static boolean tchar(char c) {
            return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
        }

        /** qdtext: HTAB, SP, the visible ASCII but {@code "} and {@code \}, and obs-text. */
        private static boolean qdtext(char c) {
            return c == '\t' || c == ' ' || c == 0x21 || c >= 0x23 && c <= 0x5B || c >= 0x5D && c <= 0x7E
                    || obsText(c);
        }

        /** What a quoted-pair may escape: HTAB, SP, the visible ASCII and obs-text. */
        private static boolean quotable(char c) {
            return c == '\t' || c >= 0x20 && c <= 0x7E || obsText(c);
        }

        private static boolean obsText(char c) {
            return c >= 0x80 && c <= 0xFF;
        }
    }
}
