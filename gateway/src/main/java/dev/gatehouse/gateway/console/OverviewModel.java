package dev.gatehouse.gateway.console;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The readiness answer ({@code /health/readiness}'s body) as rows of the overview: each part's name, its state and
 * the details the probe gave, all as text.
 *
 * @param rows one row per fact, in the probe's order
 */
public record OverviewModel(List<Row> rows) {

    /**
     * @param part  which part (PDP, store, notices, a service client)
     * @param name  the fact's name as the probe spells it
     * @param value its value as text
     * @param bad   whether it says something is wrong (shown as a warning)
     */
    public record Row(String part, String name, String value, boolean bad) {
    }

    static OverviewModel of(Map<String, Object> body) {
        List<Row> rows = new ArrayList<>();
        flatten(rows, "gateway", "", Map.of("status", body.getOrDefault("status", "DOWN"),
                "draining", body.getOrDefault("draining", false)));
        for (String part : List.of("pdp", "store", "notices", "services")) {
            if (body.get(part) instanceof Map<?, ?> map) {
                flatten(rows, part, "", map);
            }
        }
        return new OverviewModel(rows);
    }

    private static void flatten(List<Row> rows, String part, String prefix, Map<?, ?> map) {
        map.forEach((key, value) -> {
            String name = prefix.isEmpty() ? String.valueOf(key) : prefix + "." + key;
            if (value instanceof Map<?, ?> nested) {
                flatten(rows, part, name, nested);
            } else {
                String text = String.valueOf(value);
                boolean bad = text.equals("DOWN") || text.equals("failing") || text.equals("unreadable")
                        || name.endsWith("fault.code") || name.equals("lastRefusal")
                        || (name.equals("draining") && text.equals("true"))
                        || (name.endsWith("state") && !List.of("ok", "works", "unknown").contains(text));
                rows.add(new Row(part, name, text, bad));
            }
        });
    }
}
