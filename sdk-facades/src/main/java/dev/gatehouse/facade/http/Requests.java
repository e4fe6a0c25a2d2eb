package dev.gatehouse.facade.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micronaut.http.HttpMethod;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Builds the JSON requests of the service contracts (schemas/services/); {@code uri} is the path and query, encoded. */
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
    private static final String JSON_TYPE = "application/json";

    private Requests() {
    }

    /** A GET accepting JSON. */
    public static ServiceRequest get(String uri) {
        return new ServiceRequest("GET", uri, null).header("Accept", JSON_TYPE);
    }

    /** A DELETE accepting JSON. */
    public static ServiceRequest delete(String uri) {
        return new ServiceRequest("DELETE", uri, null).header("Accept", JSON_TYPE);
    }

    /** A request with a JSON object body, serialised here so the bytes on the wire are exactly the contract's. */
    public static ServiceRequest json(HttpMethod method, String uri, Map<String, ?> body) {
        byte[] bytes;
        try {
            bytes = JSON.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            // Bodies are built from JSON values only; anything else is a programming error.
            throw new IllegalArgumentException("request body is not JSON-serialisable", e);
        }
        return new ServiceRequest(method.name(), uri, bytes).header("Content-Type", JSON_TYPE)
                .header("Accept", JSON_TYPE);
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
