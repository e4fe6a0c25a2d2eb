package dev.gatehouse.gateway.support;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatehouse.gateway.policy.EnforcementDocument;
import dev.gatehouse.gateway.policy.TestBundle;
import dev.gatehouse.gateway.policy.api.PolicyContents;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The access table and the tool input schemas as the repository holds them (policies/gatehouse/access_table,
 * schemas/tools), which {@code make bundle} signs into the revision the tests serve: tests read tools from here and
 * never list them by hand.
 */
public final class PolicySources {

    private static final ObjectMapper JSON = new ObjectMapper();

    private PolicySources() {
    }

    /** Tool name → its access-table row as JSON values, in the table's order. */
    public static Map<String, Map<String, Object>> accessTable() {
        return read(TestBundle.policies().resolve("gatehouse/access_table/data.json"));
    }

    /** The input schema of {@code tool} as JSON values (schemas/tools/&lt;tool&gt;.input.json). */
    public static Map<String, Object> schema(String tool) {
        return read(TestBundle.repo().resolve("schemas/tools/" + tool + ".input.json"));
    }

    /** Tool name → its input schema, for every row, sorted by name. */
    public static Map<String, Map<String, Object>> schemas() {
        Map<String, Map<String, Object>> schemas = new TreeMap<>();
        accessTable().keySet().forEach(tool -> schemas.put(tool, schema(tool)));
        return schemas;
    }

    /**
     * The contents a revision built from the repository carries, as the PEP reads them ({@link EnforcementDocument}),
     * with {@code schemas} changed by {@code edit} first (and an empty reason catalogue).
     */
    public static PolicyContents contents(java.util.function.Consumer<Map<String, Map<String, Object>>> edit) {
        Map<String, Map<String, Object>> schemas = schemas();
        edit.accept(schemas);
        EnforcementDocument.Read read = EnforcementDocument.read(JSON.valueToTree(Map.of("accessTable", accessTable(),
                "toolSchemas", schemas, "reasons", Map.of(), "ceilings", List.of(), "modes", Map.of())));
        return ((EnforcementDocument.Contents) read).contents();
    }

    /** {@link #contents(java.util.function.Consumer)} unchanged. */
    public static PolicyContents contents() {
        return contents(schemas -> { });
    }

    private static <T> Map<String, T> read(Path file) {
        try {
            return JSON.readValue(file.toFile(), new TypeReference<LinkedHashMap<String, T>>() {
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
