package dev.gatehouse.facade.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The service contracts of schemas/services/ for tests: validates a message against one {@code $defs} entry.
 * Looks the files up from the module directory or the repository root.
 */
public final class ContractSchemas {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SchemaRegistry REGISTRY =
            SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

    private ContractSchemas() {
    }

    /** Validation errors of {@code message} against {@code <service>.schema.json#/$defs/<message>}; empty if valid. */
    public static List<String> errors(String service, String definition, JsonNode message) {
        JsonNode document = document(service);
        if (!document.path("$defs").has(definition)) {
            throw new IllegalArgumentException("no $defs/" + definition + " in " + service);
        }
        ObjectNode wrapper = JSON.createObjectNode();
        wrapper.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        wrapper.set("$defs", document.get("$defs"));
        wrapper.put("$ref", "#/$defs/" + definition);
        Schema schema = REGISTRY.getSchema(wrapper);
        return schema.validate(message).stream().map(Error::toString).toList();
    }

    /** Same as {@link #errors(String, String, JsonNode)} for JSON text. */
    public static List<String> errors(String service, String definition, String message) {
        try {
            return errors(service, definition, JSON.readTree(message));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode document(String service) {
        String name = "schemas/services/" + service + ".schema.json";
        for (Path candidate : List.of(Path.of("..", name), Path.of(name))) {
            if (Files.exists(candidate)) {
                try {
                    return JSON.readTree(candidate.toFile());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        throw new IllegalStateException("cannot find " + name);
    }
}
