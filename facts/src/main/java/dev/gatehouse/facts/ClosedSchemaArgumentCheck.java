package dev.gatehouse.facts;

import dev.gatehouse.facts.DecisionInput.ArgumentError;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.PathType;
import java.math.BigDecimal;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * {@link ArgumentCheck} with networknt json-schema-validator (JSON Schema 2020-12). Each tool's schema is compiled
 * once per revision. Messages are composed here from the keyword, the location and the member name, so no argument
 * value is ever copied into the decision input, the decision log or the agent's answer.
 */
public class ClosedSchemaArgumentCheck implements ArgumentCheck {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The most integer digits a number in the arguments may have to be read as the integer it is. */
    static final int MAX_DIGITS = 1000;
    private static final String DIALECT = "https://json-schema.org/draft/2020-12/schema";

    private final SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
            builder -> builder.schemaRegistryConfig(
                    SchemaRegistryConfig.builder().pathType(PathType.JSON_POINTER).build()));
    /** The 2020-12 meta-schema (bundled with the validator, never fetched): a tool schema must satisfy it. */
    private final Schema metaSchema = registry.getSchema(SchemaLocation.of(DIALECT));

    /**
     * {@inheritDoc} A schema compiles when it satisfies the JSON Schema 2020-12 meta-schema (the validator itself
     * accepts, for instance, {@code "type": 5} and ignores it), every {@code $ref} is a JSON Pointer into the document
     * itself that resolves there (a tool schema is self-contained; nothing is ever fetched), and its validators can be
     * built.
     */
    @Override
    public Validator compile(Map<String, Object> schema) {
        JsonNode document = JSON.valueToTree(schema);
        List<Error> invalid = metaSchema.validate(document);
        if (!invalid.isEmpty()) {
            Error first = invalid.get(0);
            throw new IllegalArgumentException("not a JSON Schema 2020-12 at '" + first.getInstanceLocation() + "': "
                    + first.getMessage());
        }
        unresolvedReference(document, document).ifPresent(reference -> {
            throw new IllegalArgumentException("$ref " + reference + " does not point into the schema itself");
        });
        Schema compiled;
        try {
            compiled = registry.getSchema(document);
            compiled.initializeValidators(); // reports a broken schema now, not at the first call
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(e.getClass().getSimpleName() + ": " + e.getMessage(), e);
        }
        return arguments -> {
            JsonNode instance = JSON.valueToTree(arguments);
            Optional<ArgumentError> unread = exactIntegers(instance, new ArrayDeque<>());
            if (unread.isPresent()) {
                return List.of(unread.get());
            }
            return compiled.validate(instance).stream().map(ClosedSchemaArgumentCheck::fact).toList();
        };
    }

    /**
     * Replaces, in place, every integral decimal under {@code node} ({@code 1e64}, {@code 100.0}) by the integer it
     * is: json-schema-validator 2.0.8 compares an integral decimal with an integer bound through a {@code long} that
     * wraps ({@code 1e64} passed {@code "maximum": 3650} and {@code 1e31} failed {@code "minimum": 0}), and compares
     * an integer node exactly. The error for a number of more than {@value #MAX_DIGITS} integer digits, which is
     * not turned into an integer (the gateway's transport refuses those before; a caller of this check alone gets
     * the error, never an unbounded conversion).
     */
    private static Optional<ArgumentError> exactIntegers(JsonNode node, Deque<String> path) {
        if (node instanceof ObjectNode object) {
            for (Iterator<Map.Entry<String, JsonNode>> members = object.fields(); members.hasNext(); ) {
                Map.Entry<String, JsonNode> member = members.next();
                Optional<ArgumentError> error = child(member.getKey(), member.getValue(), member::setValue, path);
                if (error.isPresent()) {
                    return error;
                }
            }
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                int at = i;
                Optional<ArgumentError> error = child(Integer.toString(i), array.get(i),
                        integer -> array.set(at, integer), path);
                if (error.isPresent()) {
                    return error;
                }
            }
        }
        return Optional.empty();
    }

    /**
     * One member or item named {@code name}: an integral decimal replaced by its integer, a container walked. The
     * location is written out only for an error (this runs on every call).
     */
    private static Optional<ArgumentError> child(String name, JsonNode value, Consumer<JsonNode> replace,
            Deque<String> path) {
        path.addLast(name);
        try {
            if (!(value instanceof DecimalNode decimal)) {
                return exactIntegers(value, path);
            }
            BigDecimal number = decimal.decimalValue();
            if (!integral(number)) {
                return Optional.empty();
            }
            if ((long) number.precision() - number.scale() > MAX_DIGITS) {
                String pointer = path.stream().map(segment -> "/" + segment.replace("~", "~0").replace("/", "~1"))
                        .collect(Collectors.joining());
                return Optional.of(new ArgumentError("type", pointer, Optional.empty(), "arguments" + pointer
                        + ": a number of more than " + MAX_DIGITS + " digits is not read"));
            }
            replace.accept(BigIntegerNode.valueOf(number.toBigIntegerExact()));
            return Optional.empty();
        } finally {
            path.removeLast();
        }
    }

    private static boolean integral(BigDecimal value) {
        return value.signum() == 0 || value.scale() <= 0 || value.stripTrailingZeros().scale() <= 0;
    }

    /** The first {@code $ref} under {@code node} that is not a JSON Pointer resolving in {@code document}. */
    private static Optional<String> unresolvedReference(JsonNode node, JsonNode document) {
        JsonNode reference = node.get("$ref");
        if (reference != null && (!reference.isTextual() || !resolves(reference.textValue(), document))) {
            return Optional.of(reference.toString());
        }
        for (JsonNode child : node) {
            Optional<String> found = unresolvedReference(child, document);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    private static boolean resolves(String reference, JsonNode document) {
        if (!reference.startsWith("#")) {
            return false;
        }
        try {
            String pointer = URLDecoder.decode(reference.substring(1), StandardCharsets.UTF_8);
            return !document.at(JsonPointer.compile(pointer)).isMissingNode();
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * The schema's own number for a bound ({@code maxLength}, {@code maximum}, {@code maxItems}, ...), so the caller
     * learns the limit it broke: {@code " (8448)"}; empty for any other keyword. Taken from the schema, never from the
     * value sent.
     */
    private static String bound(Error error) {
        JsonNode bound = error.getSchemaNode();
        return bound != null && bound.isNumber() ? " (" + bound.asText() + ")" : "";
    }

    private static ArgumentError fact(Error error) {
        String location = error.getInstanceLocation() == null ? "" : error.getInstanceLocation().toString();
        Optional<String> property = Optional.ofNullable(error.getProperty());
        String where = location.isEmpty() ? "arguments" : "arguments" + location;
        String message = switch (error.getKeyword()) {
            case "additionalProperties" -> where + ": unknown member " + property.map(p -> "'" + p + "'").orElse("");
            case "required" -> where + ": missing member " + property.map(p -> "'" + p + "'").orElse("");
            default -> where + ": does not satisfy '" + error.getKeyword() + "'" + bound(error);
        };
        return new ArgumentError(error.getKeyword(), location, property, message.trim());
    }
}
