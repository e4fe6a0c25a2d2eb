package dev.gatehouse.facts;

import dev.gatehouse.facts.DecisionInput.ArgumentError;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.PathType;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link ArgumentCheck} with networknt json-schema-validator (JSON Schema 2020-12). Each tool's schema is compiled
 * once per revision. Messages are composed here from the keyword, the location and the member name, so no argument
 * value is ever copied into the decision input, the decision log or the agent's answer.
 */
public class ClosedSchemaArgumentCheck implements ArgumentCheck {

    private static final ObjectMapper JSON = new ObjectMapper();
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
            return compiled.validate(instance).stream().map(ClosedSchemaArgumentCheck::fact).toList();
        };
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

    private static ArgumentError fact(Error error) {
        String location = error.getInstanceLocation() == null ? "" : error.getInstanceLocation().toString();
        Optional<String> property = Optional.ofNullable(error.getProperty());
        String where = location.isEmpty() ? "arguments" : "arguments" + location;
        String message = switch (error.getKeyword()) {
            case "additionalProperties" -> where + ": unknown member " + property.map(p -> "'" + p + "'").orElse("");
            case "required" -> where + ": missing member " + property.map(p -> "'" + p + "'").orElse("");
            default -> where + ": does not satisfy '" + error.getKeyword() + "'";
        };
        return new ArgumentError(error.getKeyword(), location, property, message.trim());
    }
}
