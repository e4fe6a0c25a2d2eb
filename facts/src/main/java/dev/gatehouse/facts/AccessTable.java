package dev.gatehouse.facts;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the access table (policies/gatehouse/access_table/data.json, schemas/access-table.json) into
 * {@link AccessRow}s, checking only the shapes Java relies on, not which classes or capabilities are known (the
 * policy's business). One reader for the gateway (a served revision's table) and the review CLI (a checkout's or a
 * bundle's).
 */
public final class AccessTable {

    private AccessTable() {
    }

    /**
     * @param table    the access table as JSON
     * @param problems where every shape problem is added, each naming its row
     * @return tool name → row, in the table's order, for the rows without problems
     */
    public static Map<String, AccessRow> rows(JsonNode table, List<String> problems) {
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
            Optional<String> toolkit = JsonShapes.text(row, "toolkit", "row " + tool, problems);
            Optional<String> accessClass = JsonShapes.text(row, "class", "row " + tool, problems);
            JsonNode capability = row.path("capability");
            if (!capability.isNull() && !capability.isTextual()) {
                problems.add("row " + tool + ": capability is neither a string nor null");
            }
            List<String> threadFields = JsonShapes.strings(row.path("threadFields"), "row " + tool + ": threadFields", problems);
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
}
