package dev.gatehouse.local.http;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import java.io.IOException;
import java.util.Optional;

/** Strict reading of JSON request bodies: one object, typed members; anything else is 400 {@code bad_request}. */
public final class RequestBodies {

    /** Fractions are read as written (BigDecimal): business data is stored as it was sent, 1e400 included. */
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .configure(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES, false);

    private RequestBodies() {
    }

    /** The body as a JSON object; an absent body is an empty object. */
    public static JsonNode object(byte[] body) {
        if (body == null || body.length == 0) {
            return JSON.createObjectNode();
        }
        try {
            JsonNode node = JSON.readTree(body);
            if (node == null || !node.isObject()) {
                throw ApiException.badRequest("bad_request", "expected a JSON object");
            }
            return node;
        } catch (IOException e) {
            throw ApiException.badRequest("bad_request", "malformed JSON");
        }
    }

    /** A required string member. */
    public static String text(JsonNode body, String field) {
        return optionalText(body, field)
                .orElseThrow(() -> ApiException.badRequest("bad_request", "missing string '" + field + "'"));
    }

    /** An optional string member; another type is 400. */
    public static Optional<String> optionalText(JsonNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isTextual()) {
            throw ApiException.badRequest("bad_request", "'" + field + "' must be a string");
        }
        return Optional.of(value.textValue());
    }

    /** A required object member. */
    public static JsonNode object(JsonNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || !value.isObject()) {
            throw ApiException.badRequest("bad_request", "missing object '" + field + "'");
        }
        return value;
    }
}
