package dev.gatehouse.gateway.policy;

import dev.gatehouse.facts.PolicyJson;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.facts.AccessRow;
import dev.gatehouse.gateway.policy.api.PolicyContents;
import dev.gatehouse.gateway.policy.api.PolicyContents.ReasonEntry;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the answer of the {@code gatehouse/authz/enforcement} entry point ({@code {accessTable, toolSchemas,
 * reasons, ceilings}}, policies/decision/decision.rego) into {@link PolicyContents}, checking only the shapes Java relies on
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
        Map<String, AccessRow> rows = rows(document.path("accessTable"), problems);
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
        List<String> ceilings = strings(document.path("ceilings"), "ceilings", problems);
        if (!problems.isEmpty()) {
            return new Problems(problems);
        }
        return new Contents(new PolicyContents(rows, schemas, reasons,
                PolicyJson.MAPPER.convertValue(document.get("accessTable"), JSON_OBJECT), ceilings));
    }

    private static Map<String, AccessRow> rows(JsonNode table, List<String> problems) {
        Map<String, AccessRow> rows = new LinkedHashMap<>();
        if (!table.isObject() || table.isEmpty()) {
            problems.add("the access table is not an object of rows");
            return rows;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = table.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            String tool = entry.getKey();
            JsonNode row = entry.getValue();
            int before = problems.size();
            Optional<String> toolkit = text(row, "toolkit", "row " + tool, problems);
            Optional<String> accessClass = text(row, "class", "row " + tool, problems);
            JsonNode capability = row.path("capability");
            if (!capability.isNull() && !capability.isTextual()) {
                problems.add("row " + tool + ": capability is neither a string nor null");
            }
            List<String> threadFields = strings(row.path("threadFields"), "row " + tool + ": threadFields", problems);
            Map<String, String> modeFields = new LinkedHashMap<>();
            JsonNode modes = row.path("modeFields");
            if (modes.isObject()) {
                modes.fields().forEachRemaining(mode -> {
                    if (mode.getValue().isTextual()) {
                        modeFields.put(mode.getKey(), mode.getValue().textValue());
                    } else {
                        problems.add("row " + tool + ": modeFields." + mode.getKey() + " is not a string");
                    }
                });
            } else {
                problems.add("row " + tool + ": modeFields is not an object");
            }
            List<String> pathFields = new ArrayList<>();
            JsonNode paths = row.path("paths");
            if (paths.isObject()) {
                paths.fields().forEachRemaining(path -> {
                    pathFields.add(path.getKey());
                    if (!path.getValue().isObject()) {
                        problems.add("row " + tool + ": paths." + path.getKey() + " is not an object");
                    }
                });
            } else {
                problems.add("row " + tool + ": paths is not an object");
            }
            if (problems.size() == before) {
                rows.put(tool, new AccessRow(toolkit.get(), accessClass.get(),
                        Optional.ofNullable(capability.textValue()), threadFields, modeFields, pathFields));
            }
        }
        return rows;
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
            Optional<String> family = text(reason, "family", "reason " + code, problems);
            Optional<String> title = text(reason, "title", "reason " + code, problems);
            Optional<String> description = text(reason, "description", "reason " + code, problems);
            Optional<String> rule = text(reason, "rule", "reason " + code, problems);
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

    private static Optional<String> text(JsonNode node, String member, String where, List<String> problems) {
        JsonNode value = node.path(member);
        if (!value.isTextual()) {
            problems.add(where + ": " + member + " is not a string");
            return Optional.empty();
        }
        return Optional.of(value.textValue());
    }

    private static List<String> strings(JsonNode array, String where, List<String> problems) {
        List<String> values = new ArrayList<>();
        if (!array.isArray()) {
            problems.add(where + " is not an array");
            return values;
        }
        for (JsonNode value : array) {
            if (value.isTextual()) {
                values.add(value.textValue());
            } else {
                problems.add(where + " holds a non-string");
            }
        }
        return values;
    }
}
