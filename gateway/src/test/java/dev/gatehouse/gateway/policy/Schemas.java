package dev.gatehouse.gateway.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Validates JSON against a schema in the repository's {@code schemas/} (JSON Schema draft 2020-12). The schemas'
 * {@code $id}s ({@code https://gatehouse.dev/schemas/...}) are served from the local files, never fetched.
 */
public final class Schemas {

    private static final String ID_PREFIX = "https://gatehouse.dev/schemas/";

    private Schemas() {
    }

    /** The validation messages for {@code instance} against {@code schemas/<file>}; empty when valid. */
    public static List<String> errors(String file, JsonNode instance) {
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                builder -> builder.schemas(Schemas::local));
        return registry.getSchema(SchemaLocation.of(ID_PREFIX + file)).validate(instance).stream()
                .map(Error::toString).toList();
    }

    private static String local(String iri) {
        if (!iri.startsWith(ID_PREFIX)) {
            return null;
        }
        Path file = TestBundle.repo().resolve("schemas").resolve(iri.substring(ID_PREFIX.length()));
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
