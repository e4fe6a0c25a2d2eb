package dev.gatehouse.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Caller profiles × tools → outcome. The profiles ({@link Profiles}) are decision inputs without tool and arguments,
 * plus minimal arguments keyed by tool; the tools are the keys of the revision's own access table. Each cell's input
 * is derived by the gateway's own fact builder ({@link Calls}), then every cell and every profile's tools/list are
 * decided by the policy ({@link Evaluation}: {@code opa eval} for the CLI, the gateway's own engine of that revision
 * for the console); nothing here knows a rule.
 */
public final class Matrix {

    /** One caller profile: a decision input without tool and arguments. */
    public record Profile(String name, String note, ObjectNode input) {
    }

    /** One tool of the access table, with its toolkit when the row names one (for grouping). */
    public record Tool(String name, String toolkit) {
    }

    /** One cell: the decision for the profile calling the tool, and whether tools/list shows the tool. */
    public record Cell(Profile profile, Tool tool, boolean decided, boolean allow, List<String> codes,
            List<String> messages, JsonNode obligations, boolean listed) {

        /** One line a reader compares: allow/deny, codes, obligations, and a listing that disagrees. */
        public String summary() {
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

    /** One cell that two matrices disagree on, as their {@link Cell#summary}s ({@code (no such tool)} when absent). */
    public record Change(String profile, String tool, String before, String after) {
    }

    /**
     * Decides every cell and every profile's listing of one matrix, on one revision, in as few evaluations as the
     * engine allows.
     */
    public interface Evaluation {

        /**
         * The answers, in the order asked.
         *
         * @param calls    decision inputs of tools/call, each for {@code data.gatehouse.authz.decision}
         * @param listings caller inputs, each for {@code data.gatehouse.authz.visible_tools}
         * @return the decision of each call and the tool names of each listing; a missing node where the policy
         *         gave no answer
         */
        Answers evaluate(List<ObjectNode> calls, List<ObjectNode> listings);
    }

    /** What an {@link Evaluation} answered, in the order asked. */
    public record Answers(List<JsonNode> decisions, List<JsonNode> listings) {
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

    /** Where the policy came from, e.g. {@code bundle target/bundle/rego-bundle.tar.gz}. */
    public String label() {
        return label;
    }

    public String revision() {
        return revision;
    }

    public List<Profile> profiles() {
        return profiles;
    }

    public List<Tool> tools() {
        return tools;
    }

    public Cell cell(Profile profile, Tool tool) {
        return cells.get(key(profile.name(), tool.name()));
    }

    /** The cell, or null when the matrix has no such profile or tool. */
    public Cell cell(String profile, String tool) {
        return cells.get(key(profile, tool));
    }

    private static String key(String profile, String tool) {
        return profile + "\u0000" + tool;
    }

    /** Every profile × tool of {@code source}, decided by {@code opa eval} in one run. */
    public static Matrix compute(Opa opa, PolicySource source, Profiles profiles) {
        return compute(new OpaEvaluation(opa, source), Calls.of(source), profiles, source.label(),
                source.revision());
    }

    /**
     * Every profile × tool of a revision.
     *
     * @param calls    the revision's access table and tool schemas
     * @param label    where the revision came from, shown on the page
     * @param revision its manifest revision
     * @throws ReviewException when the revision has no access table
     */
    public static Matrix compute(Evaluation evaluation, Calls calls, Profiles profiles, String label,
            String revision) {
        List<Tool> tools = new ArrayList<>();
        calls.tools().forEach(name -> tools.add(new Tool(name, calls.toolkit(name))));
        if (tools.isEmpty()) {
            throw new ReviewException("the policy has no access table (data.gatehouse.access_table) in " + label);
        }
        tools.sort(Comparator.comparing(Tool::toolkit).thenComparing(Tool::name));
        List<ObjectNode> listingInputs = new ArrayList<>();
        List<ObjectNode> cellInputs = new ArrayList<>();
        for (Profile p : profiles.profiles()) {
            listingInputs.add(p.input());
            for (Tool t : tools) {
                ObjectNode call = p.input().deepCopy();
                call.put("tool", t.name());
                call.set("arguments", profiles.arguments(t.name()));
                cellInputs.add(calls.input(call));
            }
        }
        Answers answers = evaluation.evaluate(cellInputs, listingInputs);
        Map<String, Cell> cells = new HashMap<>();
        for (int pi = 0; pi < profiles.profiles().size(); pi++) {
            Profile p = profiles.profiles().get(pi);
            Set<String> listed = new HashSet<>();
            answers.listings().get(pi).forEach(name -> listed.add(name.asText()));
            for (int ti = 0; ti < tools.size(); ti++) {
                Tool t = tools.get(ti);
                JsonNode d = answers.decisions().get(pi * tools.size() + ti);
                List<String> codes = new ArrayList<>();
                List<String> messages = new ArrayList<>();
                d.path("reasons").forEach(r -> {
                    codes.add(r.path("code").asText());
                    messages.add(r.path("message").asText());
                });
                cells.put(key(p.name(), t.name()), new Cell(p, t, d.isObject(),
                        d.path("allow").isBoolean() && d.path("allow").asBoolean(), codes, messages,
                        d.isObject() ? d.path("obligations") : null, listed.contains(t.name())));
            }
        }
        return new Matrix(label, revision, profiles.profiles(), tools, cells);
    }

    /** The cells (profile × every tool of either) whose summaries differ from {@code a} to {@code b}. */
    public static List<Change> changes(Matrix a, Matrix b) {
        Set<String> tools = new LinkedHashSet<>();
        a.tools().forEach(t -> tools.add(t.name()));
        b.tools().forEach(t -> tools.add(t.name()));
        List<Change> changes = new ArrayList<>();
        for (Profile p : a.profiles()) {
            for (String tool : tools) {
                Cell ca = a.cell(p.name(), tool);
                Cell cb = b.cell(p.name(), tool);
                String sa = ca == null ? "(no such tool)" : ca.summary();
                String sb = cb == null ? "(no such tool)" : cb.summary();
                if (!sa.equals(sb)) {
                    changes.add(new Change(p.name(), tool, sa, sb));
                }
            }
        }
        return changes;
    }

    /** {@link Evaluation} by one {@code opa eval} of every cell and listing through a helper module. */
    static final class OpaEvaluation implements Evaluation {

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

        private final Opa opa;
        private final PolicySource source;

        OpaEvaluation(Opa opa, PolicySource source) {
            this.opa = opa;
            this.source = source;
        }

        @Override
        public Answers evaluate(List<ObjectNode> calls, List<ObjectNode> listings) {
            ObjectNode input = Opa.JSON.createObjectNode();
            ArrayNode profileInputs = input.putArray("profiles");
            listings.forEach(profileInputs::add);
            ArrayNode cellInputs = input.putArray("cells");
            calls.forEach(cellInputs::add);
            JsonNode out = opa.eval(source, MODULE, "data.gatehouse_cli.result", input);
            List<JsonNode> decisions = new ArrayList<>();
            for (int i = 0; i < calls.size(); i++) {
                decisions.add(out.path("cells").path(String.valueOf(i)));
            }
            List<JsonNode> visible = new ArrayList<>();
            for (int i = 0; i < listings.size(); i++) {
                visible.add(out.path("visible").path(String.valueOf(i)));
            }
            return new Answers(decisions, visible);
        }
    }
}
