package dev.gatehouse.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.review.Obligations;
import dev.gatehouse.review.Opa;
import dev.gatehouse.review.PolicySource;
import dev.gatehouse.review.ReviewException;
import dev.gatehouse.review.StandIns;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code gatehouse replay}: decision-log records decided again on a policy, mismatches reported (exit 1). */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = "Re-evaluates every decision-log record (schemas/decision-log-record.json) against the policy"
                + " and lists each record whose result differs. Files are read in the order given (rotated logs"
                + " oldest first); the values file beside each (<name>.values<ext>) is read too, and values files"
                + " given are used, not replayed. Values the log stood in for are put back by their SHA-256."
                + " Records with faults, or needing a value no values file holds, are counted and skipped."
                + " Exit 1 on any mismatch.")
final class Replay implements Callable<Integer> {
    private static final Pattern PATH = Pattern.compile("[A-Za-z0-9_]+(/[A-Za-z0-9_]+)*");

    @Spec
    CommandSpec spec;

    @Mixin
    Source source = new Source();

    @Parameters(arity = "1..*", paramLabel = "decisions.jsonl", description = "decision-log files, in order")
    List<Path> files;

    record Entry(String where, JsonNode record, int input) {
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        Opa opa = source.opa();
        StandIns standIns = new StandIns();
        List<Path> logs = new ArrayList<>();
        Set<Path> valuesFiles = new LinkedHashSet<>();
        for (Path file : files) {
            if (StandIns.isValuesFile(file)) {
                valuesFiles.add(file);
            } else {
                logs.add(file);
                if (Files.exists(StandIns.valuesFile(file))) {
                    valuesFiles.add(StandIns.valuesFile(file));
                }
            }
        }
        for (Path file : valuesFiles) {
            try {
                standIns.read(file);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new ReviewException("cannot read " + file + ": " + e.getOriginalMessage());
            }
        }
        List<String> mismatches = new ArrayList<>();
        Map<String, List<Entry>> byPath = new LinkedHashMap<>();
        Map<String, Map<JsonNode, Integer>> inputs = new LinkedHashMap<>();
        Map<String, Integer> revisions = new TreeMap<>();
        int records = 0;
        int faults = 0;
        int masked = 0;
        int restored = 0;
        int missing = 0;
        for (Path file : logs) {
            int lineNo = 0;
            try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                for (String line; (line = reader.readLine()) != null; ) {
                    lineNo++;
                    if (line.isBlank()) {
                        continue;
                    }
                    String where = file + ":" + lineNo;
                    records++;
                    JsonNode logged;
                    try {
                        logged = Opa.JSON.readTree(line);
                    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                        mismatches.add(where + ": not a JSON record (" + e.getOriginalMessage() + ")");
                        continue;
                    }
                    JsonNode rec = logged;
                    if (logged.has("reduced") || logged.has("redacted") || logged.has("redactedKeys")) {
                        Optional<ObjectNode> whole = standIns.restore(logged);
                        if (whole.isEmpty()) {
                            missing++;
                            continue;
                        }
                        rec = whole.get();
                        restored++;
                    }
                    if (rec.has("fault") || rec.path("quota").path("limit").asText().equals("share")) {
                        faults++; // nothing was evaluated: a PDP fault, or a call refused for its fair share
                        continue;
                    }
                    String path = rec.path("path").asText("");
                    if (!PATH.matcher(path).matches() || !rec.has("input") || !rec.has("result")) {
                        mismatches.add(where + ": not a decision record (needs path, input and result)");
                        continue;
                    }
                    if (rec.has("masked")) {
                        masked++;
                    }
                    revisions.merge(rec.path("bundles").path("gatehouse").path("revision").asText("(none)"), 1,
                            Integer::sum);
                    String inconsistent = inconsistency(rec);
                    if (inconsistent != null) {
                        mismatches.add(where + " " + describe(rec) + ": the record contradicts its own result ("
                                + inconsistent + ")");
                    }
                    // Equal inputs evaluate to equal results: each distinct input is evaluated once.
                    Map<JsonNode, Integer> distinct = inputs.computeIfAbsent(path, k -> new LinkedHashMap<>());
                    int input = distinct.computeIfAbsent(rec.get("input"), k -> distinct.size());
                    byPath.computeIfAbsent(path, k -> new ArrayList<>()).add(new Entry(where, rec, input));
                }
            } catch (IOException e) {
                throw new ReviewException("cannot read " + file + ": " + e.getMessage());
            }
        }
        try (PolicySource policy = source.open()) {
            for (Map.Entry<String, List<Entry>> group : byPath.entrySet()) {
                ObjectNode input = Opa.JSON.createObjectNode();
                ArrayNode list = input.putArray("records");
                inputs.get(group.getKey()).keySet().forEach(list::add);
                String module = "package gatehouse_cli\n\nresult contains {\"i\": i, \"v\": v} if {\n"
                        + "\tsome i, record in input.records\n\tv := data." + group.getKey().replace('/', '.')
                        + " with input as record\n}\n";
                JsonNode results = opa.eval(policy, module, "data.gatehouse_cli.result", input);
                Map<Integer, JsonNode> values = new TreeMap<>();
                results.forEach(r -> values.put(r.path("i").asInt(), r.path("v")));
                for (Entry e : group.getValue()) {
                    JsonNode recorded = e.record().get("result");
                    JsonNode replayed = values.get(e.input());
                    if (replayed == null || !replayed.equals(recorded)) {
                        mismatches.add(e.where() + " " + describe(e.record()) + ": recorded " + brief(recorded)
                                + ", replayed " + (replayed == null ? "UNDEFINED" : brief(replayed)));
                    }
                }
            }
            int distinct = inputs.values().stream().mapToInt(Map::size).sum();
            out.println("replayed " + (records - faults - missing) + " records (" + distinct + " distinct"
                    + " inputs) from " + logs.size() + " file(s) against " + policy.label() + " @ "
                    + policy.revision());
            out.println("recorded under revision(s): " + revisions);
            if (restored > 0) {
                out.println(restored + " record(s) had values put back from " + valuesFiles.size()
                        + " values file(s) (" + standIns.size() + " values)");
            }
            if (faults > 0) {
                out.println("skipped " + faults + " fault or fair-share record(s): the PDP gave no result to"
                        + " compare");
            }
            if (missing > 0) {
                out.println("skipped " + missing + " record(s) needing a value no values file holds (a masked"
                        + " value, which is never kept, or a values file not given)");
            }
            if (masked > 0) {
                out.println(masked + " record(s) carry masked arguments and were replayed with the masked values");
            }
        }
        if (mismatches.isEmpty()) {
            out.println("no mismatches");
            return 0;
        }
        out.println(mismatches.size() + " mismatch(es):");
        mismatches.forEach(m -> out.println("  MISMATCH " + m));
        return 1;
    }

    private static String describe(JsonNode rec) {
        return "decision " + rec.path("decision_id").asText("?") + " " + rec.path("method").asText("?")
                + (rec.has("tool") ? " " + rec.path("tool").asText() : "");
    }

    /** The readable copies (allow, reasons, obligations) must say what result says. */
    private static String inconsistency(JsonNode rec) {
        JsonNode result = rec.get("result");
        if (result.isObject()) {
            if (rec.has("allow") && !rec.get("allow").equals(result.path("allow"))) {
                return "allow";
            }
            if (rec.has("reasons") && !rec.get("reasons").equals(result.path("reasons"))) {
                return "reasons";
            }
            if (rec.has("obligations") && !rec.get("obligations").equals(result.path("obligations"))) {
                return "obligations";
            }
        }
        return null;
    }

    private static String brief(JsonNode v) {
        if (v.isObject() && v.has("allow")) {
            List<String> codes = new ArrayList<>();
            v.path("reasons").forEach(r -> codes.add(r.path("code").asText()));
            String obl = Obligations.flat(v.path("obligations"));
            return (v.path("allow").asBoolean() ? "ALLOW" : "DENY") + " " + codes + (obl.isEmpty() ? "" : " " + obl);
        }
        return v.toString();
    }
}
