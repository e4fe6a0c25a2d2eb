package dev.gatehouse.facade.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpRequest;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Builds the JSON requests of the service contracts (schemas/services/). */
public final class Requests {

    /** Request header carrying the acting logical agent, added by the facade from the trusted context. */
    public static final String AGENT_HEADER = "Gatehouse-Agent-Id";

    /** The wiki subtree a Wiki call is confined to (the caller's, or one its registration shares). */
    public static final String WIKI_ROOT_HEADER = "Gatehouse-Wiki-Root";
    /** Request header carrying the calling thread, when the caller is one. */
    public static final String THREAD_HEADER = "Gatehouse-Thread-Id";
    /** Request header carrying a submit's idempotency key. */
    public static final String IDEMPOTENCY_HEADER = "Idempotency-Key";

    private static final ObjectMapper JSON = new ObjectMapper();

    private Requests() {
    }

    /** A GET accepting JSON. */
    public static MutableHttpRequest<?> get(String uri) {
        return HttpRequest.GET(uri).accept(MediaType.APPLICATION_JSON_TYPE);
    }

    /** A DELETE accepting JSON. */
    public static MutableHttpRequest<?> delete(String uri) {
        return HttpRequest.DELETE(uri).accept(MediaType.APPLICATION_JSON_TYPE);
    }

    /** A request with a JSON object body, serialised here so the bytes on the wire are exactly the contract's. */
    public static MutableHttpRequest<?> json(HttpMethod method, String uri, Map<String, ?> body) {
        byte[] bytes;
        try {
            bytes = JSON.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            // Bodies are built from JSON values only; anything else is a programming error.
            throw new IllegalArgumentException("request body is not JSON-serialisable", e);
        }
        return HttpRequest.create(method, uri).body(bytes)
                .contentType(MediaType.APPLICATION_JSON_TYPE).accept(MediaType.APPLICATION_JSON_TYPE);
    }

    /** One path segment, percent-encoded so that {@code /}, {@code ?} and {@code %} in ids stay inside it. */
    public static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** One query parameter value, percent-encoded. */
    public static String query(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
