package dev.gatehouse.gateway.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/** JSON text of a structured tool result, for the text content that mirrors it. */
final class JsonText {

    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonText() {
    }

    static String of(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("tool result is not JSON-serialisable", e);
        }
    }
}
