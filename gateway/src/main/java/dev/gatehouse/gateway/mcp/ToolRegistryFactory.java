package dev.gatehouse.gateway.mcp;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatehouse.gateway.gate.AccessRow;
import dev.gatehouse.gateway.gate.RegistryException;
import dev.gatehouse.gateway.gate.ToolRegistry;
import dev.gatehouse.gateway.gate.ToolSchema;
import dev.gatehouse.gateway.tools.ToolHandler;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Builds the {@link ToolRegistry} at start-up from the classpath copies of the access table
 * ({@value #ACCESS_TABLE}) and the tool input schemas ({@value #SCHEMAS}&lt;tool&gt;.input.json), both packed into
 * the jar by the build from {@code policies/} and {@code schemas/tools/}, plus every {@link ToolHandler} bean. Any
 * mismatch stops start-up ({@link RegistryException}).
 */
@Factory
public class ToolRegistryFactory {

    /** Classpath location of the access table. */
    public static final String ACCESS_TABLE = "gatehouse/access_table/data.json";
    /** Classpath folder of the tool input schemas. */
    public static final String SCHEMAS = "gatehouse/tools/";

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    /** The registry of the tools this gateway serves. */
    @Singleton
    public ToolRegistry toolRegistry(List<ToolHandler> handlers) {
        return ToolRegistry.join(readTable(), ToolRegistryFactory::readSchema, handlers);
    }

    /**
     * Reads the access table from the classpath.
     *
     * @return rows in file order
     * @throws RegistryException when the table is missing, repeats a name or a row is malformed
     */
    public static List<Map.Entry<String, AccessRow>> readTable() {
        try (InputStream in = resource(ACCESS_TABLE)) {
            if (in == null) {
                throw new RegistryException(List.of("access table " + ACCESS_TABLE + " is not on the classpath"));
            }
            return rows(JSON.readTree(in));
        } catch (IOException e) {
            throw new RegistryException(List.of("access table " + ACCESS_TABLE + " is not valid: " + e.getMessage()));
        }
    }

    /** Parses access-table JSON (an object of rows keyed by tool name). */
    public static List<Map.Entry<String, AccessRow>> rows(JsonNode table) {
        List<Map.Entry<String, AccessRow>> rows = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = table.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> field = it.next();
            JsonNode row = field.getValue();
            List<String> threadFields = JSON.convertValue(row.path("threadFields"), new TypeReference<>() {
            });
            Map<String, String> modeFields = JSON.convertValue(row.path("modeFields"),
                    new TypeReference<LinkedHashMap<String, String>>() {
                    });
            List<String> pathFields = new ArrayList<>();
            row.path("paths").fieldNames().forEachRemaining(pathFields::add);
            rows.add(new AbstractMap.SimpleImmutableEntry<>(field.getKey(), new AccessRow(
                    row.path("toolkit").asText(), row.path("class").asText(),
                    Optional.ofNullable(row.path("capability").textValue()),
                    threadFields == null ? List.of() : threadFields,
                    modeFields == null ? Map.of() : modeFields,
                    pathFields)));
        }
        return rows;
    }

    /** The schema of {@code tool} from the classpath, or empty when the file does not exist. */
    public static Optional<ToolSchema> readSchema(String tool) {
        try (InputStream in = resource(SCHEMAS + tool + ".input.json")) {
            if (in == null) {
                return Optional.empty();
            }
            Map<String, Object> schema = JSON.readValue(in, new TypeReference<LinkedHashMap<String, Object>>() {
            });
            return Optional.of(new ToolSchema(String.valueOf(schema.getOrDefault("title", tool)),
                    String.valueOf(schema.getOrDefault("description", "")), schema));
        } catch (IOException e) {
            throw new UncheckedIOException("schema of " + tool + " is not valid JSON", e);
        }
    }

    private static InputStream resource(String path) {
        return ToolRegistryFactory.class.getClassLoader().getResourceAsStream(path);
    }
}
