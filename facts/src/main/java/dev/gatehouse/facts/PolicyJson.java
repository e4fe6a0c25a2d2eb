package dev.gatehouse.facts;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
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

    /**
     * What reading allows: Jackson's defaults, but a member name as long as a string value may be (20,000,000
     * characters; Jackson's default caps names at 50,000). A record or a stored value the decision log wrote must read
     * back whatever it holds, and a caller's text can be a member name there (a path segment is a name of the
     * {@code unicode} fact, an argument's member name is one of the arguments): one call with a longer name once
     * stopped the decision index and the replay of every later record.
     */
    public static final StreamReadConstraints READ_CONSTRAINTS = StreamReadConstraints.builder()
            .maxNameLength(StreamReadConstraints.DEFAULT_MAX_STRING_LEN).build();

    /** Shared, thread-safe after configuration. */
    public static final ObjectMapper MAPPER = JsonMapper.builder(
                    JsonFactory.builder().streamReadConstraints(READ_CONSTRAINTS).build())
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
