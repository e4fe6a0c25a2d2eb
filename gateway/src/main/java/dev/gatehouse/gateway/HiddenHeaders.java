package dev.gatehouse.gateway;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.util.Collections;
import java.util.Enumeration;
import java.util.Set;
import java.util.TreeSet;

/**
 * A request seen without some of its header fields (names in any case), for a layer that must not read them. Hiding
 * {@code Content-Type} hides the request's content type and character encoding too.
 */
public final class HiddenHeaders extends HttpServletRequestWrapper {

    private static final String CONTENT_TYPE = "Content-Type";

    private final Set<String> hidden = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);

    /** {@code request} without the header fields named {@code names}. */
    public HiddenHeaders(HttpServletRequest request, Set<String> names) {
        super(request);
        hidden.addAll(names);
    }

    @Override
    public String getContentType() {
        return hidden.contains(CONTENT_TYPE) ? null : super.getContentType();
    }

    @Override
    public String getCharacterEncoding() {
        return hidden.contains(CONTENT_TYPE) ? null : super.getCharacterEncoding();
    }

    @Override
    public String getHeader(String name) {
        return hidden.contains(name) ? null : super.getHeader(name);
    }

    @Override
    public Enumeration<String> getHeaders(String name) {
        return hidden.contains(name) ? Collections.emptyEnumeration() : super.getHeaders(name);
    }

    @Override
    public Enumeration<String> getHeaderNames() {
        return Collections.enumeration(Collections.list(super.getHeaderNames()).stream()
                .filter(name -> !hidden.contains(name)).toList());
    }
}
