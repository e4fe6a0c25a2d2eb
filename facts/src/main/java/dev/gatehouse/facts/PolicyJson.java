package dev.gatehouse.facts;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.UncheckedIOException;

/**
 * The one JSON mapper of the policy and audit packages. Reading rejects duplicate member names, so a result such as
 * {@code {"allow":false,"allow":true}} can never be read as whichever member came last. Numbers are read exactly, as
 * the JSON-RPC guard reads a call's arguments (a fraction or an exponent as a {@code BigDecimal}, trailing zeros
 * kept): a logged input read back for replay, search or the console is the very input the engine was given, so
 * {@code 1E+400} stays a number and does not become the string {@code "Infinity"}.
 */
public final class PolicyJson {

    /** Shared, thread-safe after configuration. */
    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .configure(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES, false)
            .build();

    private PolicyJson() {
    }

    /**
     * Serialises a tree to compact JSON (UTF-8 when encoded as bytes).
     *
     * @throws UncheckedIOException never in practice for trees built from JSON values; kept unchecked for that reason
     */
    public static String write(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
