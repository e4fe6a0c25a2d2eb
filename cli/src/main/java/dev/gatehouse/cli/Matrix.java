package dev.gatehouse.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Caller profiles × tools → outcome. The profiles file holds decision inputs without tool and arguments, plus
 * minimal arguments keyed by tool; the tools are the keys of the policy's own access table. Every cell and every
 * profile's tools/list are computed by the policy in one {@code opa eval}; nothing here knows a rule.
 */
final class Matrix {

    /** One caller profile: a decision input without tool and arguments. */
    record Profile(String name, String note, ObjectNode input) {
    }

    /** One tool of the access table, with its toolkit when the row names one (for grouping). */
    record Tool(String name, String toolkit) {
    }

    /** One cell: the decision for the profile calling the tool, and whether tools/list shows the tool. */
    record Cell(Profile profile, Tool tool, boolean decided, boolean allow, List<String> codes, List<String> messages,
                JsonNode obligations, boolean listed) {

        /** One line a reader compares: allow/deny, codes, obligations, and a listing that disagrees. */
        String summary() {
            if (!decided) {
                return "UNDEFINED (the policy gave no decision)";
            }
            StringBuilder s = new StringBuilder(allow ? "ALLOW" : "DENY");
            if (!codes.isEmpty()) {
                s.append(' ').append(String.join(",", codes));
            }
            if (obligations != null && obligations.size() > 0) {
                s.append(' ').append(Obligations.flat(obligations));
            }
            if (allow != listed) {
                s.append(listed ? " (listed)" : " (not listed)");
            }
            return s.toString();
        }
    }

    private final String label;
    private final String revision;
    private final List<Profile> profiles;
    private final List<Tool> tools;
    private final Map<String, Cell> cells;

    private Matrix(String label, String revision, List<Profile> profiles, List<Tool> tools, Map<String, Cell> cells) {
        this.label = label;
        this.revision = revision;
        this.profiles = profiles;
        this.tools = tools;
        this.cells = cells;
    }

    String label() {
        return label;
    }

    String revision() {
        return revision;
    }

    List<Profile> profiles() {
        return profiles;
    }

    List<Tool> tools() {
        return tools;
    }

    Cell cell(Profile profile, Tool tool) {
        return cells.get(key(profile.name(), tool.name()));
    }

    Cell cell(String profile, String tool) {
        return cells.get(key(profile, tool));
    }

    private static String key(String profile, String tool) {
        return profile + "\u0000" + tool;
    }

    static final String MODULE = String.join("\n",
            "package gatehouse_cli",
            "",
            "result := {\"tools\": data.gatehouse.access_table, \"cells\": cells, \"visible\": visible}",
            "",
            "cells contains {\"p\": pi, \"tool\": tool, \"d\": d} if {",
            "\tsome pi, p in input.profiles",
            "\tsome tool, _ in data.gatehouse.access_table",
            "\targs := object.get(input.arguments, tool, {})",
            // The gateway reports every argument key with its Unicode fold; for the profiles' minimal arguments
            // (ASCII letters) that is lower case with l read as i and rn written m (GatehouseCli.asciiFold).
            "\tkeys := [{\"path\": \"\", \"key\": k, \"folded\": strings.replace_n({\"l\": \"i\", \"rn\": \"m\"}, lower(k))} |",
            "\t\twalk(args, [_, v]); is_object(v); some k, _ in v]",
            "\tcell := object.union(p.input, {\"tool\": tool, \"arguments\": args, \"argumentKeys\": keys})",
            "\td := data.gatehouse.authz.decision with input as cell",
            "}",
            "",
            "visible contains {\"p\": pi, \"v\": v} if {",
            "\tsome pi, p in input.profiles",
            "\tprofile := p.input",
            "\tv := data.gatehouse.authz.visible_tools with input as profile",
            "}",
            "");

    static Matrix compute(Opa opa, PolicySource source, Path profilesFile) {
        JsonNode doc;
        try {
            doc = Opa.JSON.readTree(profilesFile.toFile());
        } catch (IOException e) {
            throw new CliException("cannot read the profiles file " + profilesFile + ": " + e.getMessage());
        }
        List<Profile> profiles = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (JsonNode p : doc.path("profiles")) {
            String name = p.path("name").asText("");
            if (name.isEmpty() || !p.path("input").isObject() || !names.add(name)) {
                throw new CliException(profilesFile + ": every profile needs a unique name and an input object");
            }
            profiles.add(new Profile(name, p.path("note").asText(""), (ObjectNode) p.get("input")));
        }
        if (profiles.isEmpty()) {
            throw new CliException(profilesFile + ": no profiles");
        }
        ObjectNode input = Opa.JSON.createObjectNode();
        ArrayNode list = input.putArray("profiles");
        profiles.forEach(p -> list.addObject().put("name", p.name()).set("input", p.input()));
        input.set("arguments", doc.path("arguments").isObject() ? doc.get("arguments") : Opa.JSON.createObjectNode());

        JsonNode out = opa.eval(source, MODULE, "data.gatehouse_cli.result", input);
        if (!out.path("tools").isObject()) {
            throw new CliException("the policy has no access table (data.gatehouse.access_table) in " + source.label());
        }
        List<Tool> tools = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = out.get("tools").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> row = it.next();
            tools.add(new Tool(row.getKey(), row.getValue().path("toolkit").asText("")));
        }
        tools.sort(Comparator.comparing(Tool::toolkit).thenComparing(Tool::name));

        Map<Integer, Set<String>> visible = new HashMap<>();
        for (JsonNode v : out.path("visible")) {
            Set<String> names2 = new HashSet<>();
            v.path("v").forEach(t -> names2.add(t.asText()));
            visible.put(v.path("p").asInt(), names2);
        }
        Map<String, JsonNode> decisions = new HashMap<>();
        for (JsonNode c : out.path("cells")) {
            decisions.put(key(profiles.get(c.path("p").asInt()).name(), c.path("tool").asText()), c.path("d"));
        }
        Map<String, Cell> cells = new HashMap<>();
        for (int pi = 0; pi < profiles.size(); pi++) {
            Profile p = profiles.get(pi);
            for (Tool t : tools) {
                JsonNode d = decisions.get(key(p.name(), t.name()));
                boolean listed = visible.getOrDefault(pi, Set.of()).contains(t.name());
                List<String> codes = new ArrayList<>();
                List<String> messages = new ArrayList<>();
                if (d != null) {
                    d.path("reasons").forEach(r -> {
                        codes.add(r.path("code").asText());
                        messages.add(r.path("message").asText());
                    });
                }
                cells.put(key(p.name(), t.name()), new Cell(p, t, d != null && d.isObject(),
                        d != null && d.path("allow").asBoolean(false) && d.path("allow").isBoolean(), codes, messages,
                        d == null ? null : d.path("obligations"), listed));
            }
        }
        return new Matrix(source.label(), source.revision(), profiles, tools, cells);
    }
}
