package dev.gatehouse.gateway;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.util.Collections;
import java.util.Enumeration;

/**
 * A request whose {@code Content-Type} passed {@link JsonContentType}, handed on declaring exactly
 * {@code application/json} in UTF-8: every spelling the rule takes means that, and the layers after it read some of
 * them otherwise (Micronaut's route matching answers {@code application/json ; charset=utf-8} 415, Jetty looks up
 * {@code charset="utf\-8"} as the charset {@code utf\-8}).
 */
public final class JsonDeclaredRequest extends HttpServletRequestWrapper {

    private static final String CONTENT_TYPE = "Content-Type";
    private static final String JSON = "application/json";

    public JsonDeclaredRequest(HttpServletRequest request) {
        super(request);
    }

    @Override
    public String getContentType() {
        return JSON;
    }

    @Override
    public String getCharacterEncoding() {
        return "UTF-8";
    }

    @Override
    public String getHeader(String name) {
        return CONTENT_TYPE.equalsIgnoreCase(name) ? JSON : super.getHeader(name);
    }

    @Override
    public Enumeration<String> getHeaders(String name) {
        return CONTENT_TYPE.equalsIgnoreCase(name) ? Collections.enumeration(Collections.singletonList(JSON))
                : super.getHeaders(name);
    }
}
