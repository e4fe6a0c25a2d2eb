package dev.gatehouse.gateway.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.PathType;
import dev.gatehouse.gateway.gate.ArgumentCheck;
import dev.gatehouse.gateway.gate.ToolSchema;
import dev.gatehouse.gateway.policy.api.DecisionInput.ArgumentError;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link ArgumentCheck} with networknt json-schema-validator (JSON Schema 2020-12). Each tool's schema is compiled
 * once. Messages are composed here from the keyword, the location and the member name, so no argument value is
 * ever copied into the decision input, the decision log or the agent's answer.
 */
@Singleton
public class ClosedSchemaArgumentCheck implements ArgumentCheck {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
            builder -> builder.schemaRegistryConfig(
                    SchemaRegistryConfig.builder().pathType(PathType.JSON_POINTER).build()));
    private final Map<ToolSchema, Schema> compiled = new ConcurrentHashMap<>();

    @Override
    public List<ArgumentError> check(ToolSchema schema, Object arguments) {
        Schema validator = compiled.computeIfAbsent(schema,
                s -> registry.getSchema(JSON.valueToTree(s.inputSchema())));
        JsonNode instance = JSON.valueToTree(arguments);
        return validator.validate(instance).stream().map(ClosedSchemaArgumentCheck::fact).toList();
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
