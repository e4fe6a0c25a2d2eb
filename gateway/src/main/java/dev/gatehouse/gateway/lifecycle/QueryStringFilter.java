package dev.gatehouse.gateway.lifecycle;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refuses a request whose raw query string is not a valid URI query before anything parses it: 400
 * {@code {"error":"invalid_request","message":…}} and one WARN line without a stack. Valid means RFC 3986 §3.4
 * characters only, every {@code %} followed by two hex digits, and the decoded bytes well-formed UTF-8 without NUL.
 * Without it the container's and Micronaut's own parsing throw on such input and answer 500.
 */
public final class QueryStringFilter implements Filter {

    private static final Logger LOG = LoggerFactory.getLogger(QueryStringFilter.class);
    static final String BODY = "{\"error\":\"invalid_request\","
            + "\"message\":\"the request's query string is not a valid URI query\"}";
    /** RFC 3986: unreserved, sub-delims, ':' '@' '/' '?' ('%' is checked apart). */
    private static final String ALLOWED_MARKS = "-._~!$&'()*+,;=:@/?";

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String query = ((HttpServletRequest) request).getQueryString();
        if (query == null || valid(query)) {
            chain.doFilter(request, response);
            return;
        }
        LOG.warn("refused a request to {} with an invalid query string", ((HttpServletRequest) request).getRequestURI());
        HttpServletResponse http = (HttpServletResponse) response;
        http.setStatus(HttpServletResponse.SC_BAD_REQUEST);
        http.setContentType("application/json");
        http.setCharacterEncoding("UTF-8");
        http.getWriter().write(BODY);
    }

    /** Whether {@code query} (raw, as sent) is a valid URI query whose escapes decode to UTF-8 without NUL. */
    static boolean valid(String query) {
        ByteBuffer bytes = ByteBuffer.allocate(query.length());
        for (int i = 0; i < query.length(); i++) {
            char c = query.charAt(i);
            if (c == '%') {
                if (i + 2 >= query.length()) {
                    return false;
                }
                if (!HexFormat.isHexDigit(query.charAt(i + 1)) || !HexFormat.isHexDigit(query.charAt(i + 2))) {
                    return false;
                }
                byte b = (byte) HexFormat.fromHexDigits(query, i + 1, i + 3);
                if (b == 0) {
                    return false;
                }
                bytes.put(b);
                i += 2;
            } else if (c < 128 && (Character.isLetterOrDigit(c) || ALLOWED_MARKS.indexOf(c) >= 0)) {
                bytes.put((byte) c);
            } else {
                return false;
            }
        }
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(bytes.flip());
            return true;
        } catch (CharacterCodingException malformed) {
            return false;
        }
    }
}
