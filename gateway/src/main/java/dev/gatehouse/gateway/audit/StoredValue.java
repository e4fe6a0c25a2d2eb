package dev.gatehouse.gateway.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.facts.PolicyJson;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * One value a record stands in for with {@code {length, sha256}}, as one line of the values file beside the
 * decision log (schemas/decision-log-record.json, {@code $defs/storedValue}): {@code {"sha256": "<hex>", "value":
 * "<the string>"}} for a string, {@code {"sha256": "<hex>", "json": <the JSON value>}} for a JSON value (the
 * {@code unicode} facts, the whole record of a reduced line). The digest is SHA-256 over the string's UTF-8 bytes,
 * or over the JSON value's compact serialisation; a value is written once per values file, keyed by {@link #key()},
 * so its line is only made ({@link #entry()}) when it is written.
 *
 * @param sha256 64 lower-case hex digits
 * @param value  the string, or the JSON value
 */
record StoredValue(String sha256, Object value) {

    /** The string {@code value}, whose UTF-8 bytes have the digest {@code sha256}. */
    static StoredValue ofString(String sha256, String value) {
        return new StoredValue(sha256, value);
    }

    /** The JSON {@code value}, whose compact serialisation is {@code serialised}. */
    static StoredValue ofJson(String serialised, JsonNode value) {
        return new StoredValue(sha256(serialised.getBytes(StandardCharsets.UTF_8)), value);
    }

    /** Whether the value is a JSON value rather than a string. */
    boolean json() {
        return value instanceof JsonNode;
    }

    /** What makes two values the same in a values file: a string and a JSON value of equal bytes are not. */
    String key() {
        return (json() ? "j" : "s") + sha256;
    }

    /** The values-file line, with its trailing newline, UTF-8. */
    byte[] entry() {
        ObjectNode line = PolicyJson.MAPPER.createObjectNode().put("sha256", sha256);
        if (value instanceof JsonNode node) {
            line.set("json", node);
        } else {
            line.put("value", (String) value);
        }
        return (PolicyJson.write(line) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
