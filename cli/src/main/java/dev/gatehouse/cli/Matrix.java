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
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Caller profiles × tools → outcome. The profiles file holds decision inputs without tool and arguments, plus
 * minimal arguments keyed by tool; the tools are the keys of the policy's own access table. Each cell's input is
 * derived by the gateway's own fact builder ({@link Calls}), then every cell and every profile's tools/list are
 * decided by the policy in one {@code opa eval}; nothing here knows a rule.
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
            "result := {\"cells\": cells, \"visible\": visible}",
            "",
            "cells[i] := d if {",
            "\tsome i, cell in input.cells",
            "\td := data.gatehouse.authz.decision with input as cell",
            "}",
            "",
            "visible[i] := v if {",
            "\tsome i, profile in input.profiles",
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
        Calls calls = Calls.of(source);
        List<Tool> tools = new ArrayList<>();
        calls.tools().forEach(name -> tools.add(new Tool(name, calls.toolkit(name))));
        if (tools.isEmpty()) {
            throw new CliException("the policy has no access table (data.gatehouse.access_table) in " + source.label());
        }
        tools.sort(Comparator.comparing(Tool::toolkit).thenComparing(Tool::name));
        JsonNode arguments = doc.path("arguments");
        ObjectNode input = Opa.JSON.createObjectNode();
        ArrayNode profileInputs = input.putArray("profiles");
        ArrayNode cellInputs = input.putArray("cells");
        for (Profile p : profiles) {
            profileInputs.add(p.input());
            for (Tool t : tools) {
                ObjectNode call = p.input().deepCopy();
                call.put("tool", t.name());
                call.set("arguments", arguments.path(t.name()).isObject() ? arguments.get(t.name())
                        : Opa.JSON.createObjectNode());
                cellInputs.add(calls.input(call));
            }
        }

        JsonNode out = opa.eval(source, MODULE, "data.gatehouse_cli.result", input);
        Map<String, Cell> cells = new HashMap<>();
        for (int pi = 0; pi < profiles.size(); pi++) {
            Profile p = profiles.get(pi);
            Set<String> listed = new HashSet<>();
            out.path("visible").path(String.valueOf(pi)).forEach(name -> listed.add(name.asText()));
            for (int ti = 0; ti < tools.size(); ti++) {
                Tool t = tools.get(ti);
                JsonNode d = out.path("cells").get(String.valueOf(pi * tools.size() + ti));
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
                        d == null ? null : d.path("obligations"), listed.contains(t.name())));
            }
        }
        return new Matrix(source.label(), source.revision(), profiles, tools, cells);
    }
}
