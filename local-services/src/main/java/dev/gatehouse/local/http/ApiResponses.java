package dev.gatehouse.local.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * JSON answers of the service contracts: bodies serialised here with Jackson, errors as
 * {@code {"code": "...", "message": "..."}} (schemas/services/*.schema.json, {@code Error}).
 */
public final class ApiResponses {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ApiResponses() {
    }

    /** 200 with a JSON body. */
    public static MutableHttpResponse<byte[]> ok(Object body) {
        return json(HttpStatus.OK, body);
    }

    /** A status with a JSON body. */
    public static MutableHttpResponse<byte[]> json(HttpStatus status, Object body) {
        try {
            return HttpResponse.<byte[]>status(status).body(JSON.writeValueAsBytes(body))
                    .contentType(MediaType.APPLICATION_JSON_TYPE);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("answer is not JSON-serialisable", e);
        }
    }

    /** An error answer with a stable code and a short message. */
    public static MutableHttpResponse<byte[]> error(HttpStatus status, String code, String message) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("code", code);
        body.put("message", message);
        return json(status, body);
    }
}
