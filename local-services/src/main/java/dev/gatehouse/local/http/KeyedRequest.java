package dev.gatehouse.local.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A mutation sent with an {@code Idempotency-Key} (schemas/services/README.md, "Idempotency keys"): the key, checked,
 * and the fingerprint of what was asked, so a key sent again can be told apart from a key sent with another request.
 * The fingerprint is the SHA-256 of the method, the path with its query, the acting agent and thread, and the body as
 * canonical JSON (members sorted, numbers as written): two sends of one request by the gateway are equal whatever
 * their whitespace or member order.
 *
 * @param key         the key as sent
 * @param fingerprint lower-case hex SHA-256 of the request's meaning
 */
public record KeyedRequest(String key, String fingerprint) {

    /** The longest key accepted, in characters; the gateway's are 46. */
    public static final int MAX_KEY_LENGTH = 255;

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    /**
     * The keyed request, or empty when no key was sent (the request is then carried out as it comes).
     *
     * @throws ApiException 400 {@code bad_idempotency_key} for a blank key or one over {@value #MAX_KEY_LENGTH}
     *                      characters
     */
    public static Optional<KeyedRequest> of(Optional<String> key, String method, String pathAndQuery,
            Optional<String> agentId, Optional<String> threadId, JsonNode body) {
        if (key.isEmpty()) {
            return Optional.empty();
        }
        if (key.get().isBlank() || key.get().length() > MAX_KEY_LENGTH) {
            throw ApiException.badRequest("bad_idempotency_key", "Idempotency-Key must be 1 to " + MAX_KEY_LENGTH
                    + " characters");
        }
        Map<String, Object> meaning = new LinkedHashMap<>();
        meaning.put("method", method);
        meaning.put("path", pathAndQuery);
        meaning.put("agentId", agentId.orElse(null));
        meaning.put("threadId", threadId.orElse(null));
        meaning.put("body", JSON.convertValue(body, Object.class));
        try {
            byte[] canonical = JSON.writeValueAsString(meaning).getBytes(StandardCharsets.UTF_8);
            return Optional.of(new KeyedRequest(key.get(),
                    HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(canonical))));
        } catch (JsonProcessingException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("cannot fingerprint a request", e);
        }
    }
}
