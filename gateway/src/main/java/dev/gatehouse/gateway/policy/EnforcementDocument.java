package dev.gatehouse.gateway.policy;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.facts.AccessRow;
import dev.gatehouse.facts.AccessTable;
import dev.gatehouse.facts.JsonShapes;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.policy.api.PolicyContents;
import dev.gatehouse.gateway.policy.api.PolicyContents.ReasonEntry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the answer of the {@code gatehouse/authz/enforcement} entry point ({@code {accessTable, toolSchemas,
 * reasons, ceilings, modes}}, policies/decision/decision.rego) into {@link PolicyContents}, checking only the shapes Java relies on
 * (schemas/access-table.json without its lists of known classes and capabilities: which values are known is the
 * policy's business). Every problem is reported, each naming where it is.
 */
public final class EnforcementDocument {

    private static final TypeReference<LinkedHashMap<String, Object>> JSON_OBJECT = new TypeReference<>() {
    };

    private EnforcementDocument() {
    }

    /** The contents, or the problems that keep the PEP from reading them. */
    public sealed interface Read {
    }

    /** The document read. */
    public record Contents(PolicyContents contents) implements Read {
    }

    /** The document cannot be read. */
    public record Problems(List<String> problems) implements Read {
    }

    /**
     * @param document the entry point's value
     * @return the contents, or every problem found
     */
    public static Read read(JsonNode document) {
        List<String> problems = new ArrayList<>();
        if (!document.isObject()) {
            return new Problems(List.of("the enforcement document is not an object"));
        }
        Map<String, AccessRow> rows = AccessTable.rows(document.path("accessTable"), problems);
        Map<String, Map<String, Object>> schemas = new LinkedHashMap<>();
        JsonNode toolSchemas = document.path("toolSchemas");
        if (!toolSchemas.isObject()) {
            problems.add("the revision carries no tool schemas (data.gatehouse.tool_schemas)");
        } else {
            toolSchemas.fields().forEachRemaining(schema -> {
                if (schema.getValue().isObject()) {
                    schemas.put(schema.getKey(), PolicyJson.MAPPER.convertValue(schema.getValue(), JSON_OBJECT));
                } else {
                    problems.add("the schema of " + schema.getKey() + " is not an object");
                }
            });
        }
        Map<String, ReasonEntry> reasons = reasons(document.path("reasons"), problems);
        List<String> ceilings = JsonShapes.strings(document.path("ceilings"), "ceilings", problems);
        Map<String, List<String>> modes = new LinkedHashMap<>();
        if (!document.path("modes").isObject()) {
            problems.add("modes is not an object");
        } else {
            document.get("modes").fields().forEachRemaining(axis -> modes.put(axis.getKey(),
                    JsonShapes.strings(axis.getValue(), "modes." + axis.getKey(), problems)));
        }
        if (!problems.isEmpty()) {
            return new Problems(problems);
        }
        return new Contents(new PolicyContents(rows, schemas, reasons,
                PolicyJson.MAPPER.convertValue(document.get("accessTable"), JSON_OBJECT), ceilings, modes));
    }

    private static Map<String, ReasonEntry> reasons(JsonNode catalogue, List<String> problems) {
        Map<String, ReasonEntry> reasons = new LinkedHashMap<>();
        if (!catalogue.isObject()) {
            problems.add("the revision carries no reason catalogue (data.gatehouse.reasons)");
            return reasons;
        }
        catalogue.fields().forEachRemaining(entry -> {
            String code = entry.getKey();
            JsonNode reason = entry.getValue();
            int before = problems.size();
            Optional<String> family = JsonShapes.text(reason, "family", "reason " + code, problems);
            Optional<String> title = JsonShapes.text(reason, "title", "reason " + code, problems);
            Optional<String> description = JsonShapes.text(reason, "description", "reason " + code, problems);
            Optional<String> rule = JsonShapes.text(reason, "rule", "reason " + code, problems);
            if (!reason.path("retryable").isBoolean()) {
                problems.add("reason " + code + ": retryable is not a boolean");
            }
            if (problems.size() == before) {
                reasons.put(code, new ReasonEntry(family.get(), title.get(), description.get(),
                        reason.get("retryable").booleanValue(), rule.get()));
            }
        });
        return reasons;
    }
}
