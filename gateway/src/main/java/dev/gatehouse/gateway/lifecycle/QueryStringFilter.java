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
 * Refuses a request whose raw query string is not a valid URI query, or whose raw path's escapes are not, before
 * anything parses them: 400 {@code {"error":"invalid_request","message":…}} and one WARN line without a stack. Valid
 * means RFC 3986 characters only (§3.3, §3.4), every {@code %} followed by two hex digits, and the decoded bytes
 * well-formed UTF-8 without NUL. Without it the container's and Micronaut's own parsing throw on such a query and
 * answer 500, and decode such a path id ({@code /admin/agents/%ff}) to U+FFFD, so two ids named one record.
 */
public final class QueryStringFilter implements Filter {

    private static final Logger LOG = LoggerFactory.getLogger(QueryStringFilter.class);
    static final String BODY = "{\"error\":\"invalid_request\","
            + "\"message\":\"the request's query string is not a valid URI query\"}";
    static final String PATH_BODY = "{\"error\":\"invalid_request\","
            + "\"message\":\"the request's path is not a valid URI path\"}";
    /** RFC 3986: unreserved, sub-delims, ':' '@' '/' '?' ('%' is checked apart); a path has no '?' left in it. */
    private static final String ALLOWED_MARKS = "-._~!$&'()*+,;=:@/?";

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest http = (HttpServletRequest) request;
        String query = http.getQueryString();
        boolean pathValid = valid(http.getRequestURI());
        if (pathValid && (query == null || valid(query))) {
            chain.doFilter(request, response);
            return;
        }
        LOG.warn("refused a request to {} with an invalid {}", http.getRequestURI(),
                pathValid ? "query string" : "path");
        HttpServletResponse answer = (HttpServletResponse) response;
        answer.setStatus(HttpServletResponse.SC_BAD_REQUEST);
        answer.setContentType("application/json");
        answer.setCharacterEncoding("UTF-8");
        answer.getWriter().write(pathValid ? BODY : PATH_BODY);
    }

    /** Whether {@code query} (raw, as sent; or a raw path) is valid URI text whose escapes decode to UTF-8 without NUL. */
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
