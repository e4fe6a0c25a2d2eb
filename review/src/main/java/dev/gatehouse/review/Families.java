package dev.gatehouse.review;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reason code → rule family, read from the policy's own METADATA through {@code opa inspect -a}: a rule annotated
 * with {@code custom.code} (one or more codes, space separated) belongs to the family of its package, whose
 * package-scope annotation gives the title.
 */
public final class Families {

    /** One family: package (e.g. gatehouse.authz.access), short name (access), title, and where the code lives. */
    public record Family(String pkg, String name, String title, String file, int row) {
    }

    private final Map<String, Family> byCode;
    private final List<String> names;

    private Families(Map<String, Family> byCode, List<String> names) {
        this.byCode = byCode;
        this.names = names;
    }

    public static Families load(Opa opa, PolicySource source) {
        JsonNode inspected = opa.inspect(source.inspectTarget());
        Map<String, String> packageTitles = new LinkedHashMap<>();
        for (JsonNode a : inspected.path("annotations")) {
            if ("package".equals(a.path("annotations").path("scope").asText())) {
                packageTitles.put(dotted(a.path("path")), a.path("annotations").path("title").asText(""));
            }
        }
        Map<String, Family> byCode = new LinkedHashMap<>();
        List<String> names = new ArrayList<>();
        for (JsonNode a : inspected.path("annotations")) {
            String codes = a.path("annotations").path("custom").path("code").asText("");
            if (codes.isBlank()) {
                continue;
            }
            String rule = dotted(a.path("path"));
            String pkg = packageTitles.keySet().stream()
                    .filter(p -> rule.startsWith(p + "."))
                    .max((x, y) -> Integer.compare(x.length(), y.length()))
                    .orElse(rule.contains(".") ? rule.substring(0, rule.lastIndexOf('.')) : rule);
            String name = pkg.substring(pkg.lastIndexOf('.') + 1);
            Family family = new Family(pkg, name, packageTitles.getOrDefault(pkg, ""),
                    a.path("location").path("file").asText(""), a.path("location").path("row").asInt());
            for (String code : codes.trim().split("\\s+")) {
                byCode.putIfAbsent(code, family);
            }
            if (!names.contains(name)) {
                names.add(name);
            }
        }
        return new Families(byCode, names);
    }

    public Optional<Family> of(String code) {
        return Optional.ofNullable(byCode.get(code));
    }

    /** Every family that owns at least one reason code, in the order the annotations list them. */
    public List<String> names() {
        return names;
    }

    private static String dotted(JsonNode path) {
        List<String> parts = new ArrayList<>();
        for (JsonNode term : path) {
            String v = term.path("value").asText();
            if (!(parts.isEmpty() && "data".equals(v))) {
                parts.add(v);
            }
        }
        return String.join(".", parts);
    }
}
