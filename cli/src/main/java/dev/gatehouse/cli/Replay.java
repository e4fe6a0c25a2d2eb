package dev.gatehouse.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.review.Obligations;
import dev.gatehouse.review.Opa;
import dev.gatehouse.review.PolicySource;
import dev.gatehouse.review.ReviewException;
import dev.gatehouse.review.StandIns;
import dev.gatehouse.review.TextFile;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
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
                + " A decision id read again is replayed once if its record is the same, and is a mismatch if not;"
                + " so is a line that is not one JSON record (a member given twice included)."
                + " A last line with no line break at its end that is not whole JSON was cut off while it was being"
                + " written (a copy of a live file, a crash): it is reported and not replayed."
                + " Exit 1 on any mismatch; exit 2 when no file given holds a record, or no line is one.")
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

    /** Where a decision id was first read, and its line as logged. */
    record Seen(String where, JsonNode logged) {
    }

    // What the files read so far hold: one command object runs once.
    private final List<String> mismatches = new ArrayList<>();
    private final Map<String, List<Entry>> byPath = new LinkedHashMap<>();
    private final Map<String, Map<JsonNode, Integer>> inputs = new LinkedHashMap<>();
    private final Map<String, Integer> revisions = new TreeMap<>();
    private final Map<String, Seen> ids = new HashMap<>();
    private final List<String> repeats = new ArrayList<>();
    /** Last lines cut off with no line break at their end (where, and how many bytes): not records, not mismatches. */
    private final List<String> cut = new ArrayList<>();
    private int records;
    /** Lines read that are not a decision-log record at all (each is also a mismatch). */
    private int notRecords;
    private int faults;
    private int masked;
    private int restored;
    private int missing;

    @Override
    public Integer call() {
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
        valuesFiles.forEach(standIns::read);
        List<Path> empty = new ArrayList<>();
        for (Path file : logs) {
            int before = records;
            int cutBefore = cut.size();
            TextFile.jsonLines(file, (lineNo, line) -> {
                if (!line.isBlank()) {
                    read(file + ":" + lineNo, line, standIns);
                }
            }, last -> cut.add(file + ":" + last.number() + " (" + last.size() + ")"));
            if (records == before && cut.size() == cutBefore) {
                empty.add(file);
            }
        }
        if (records == 0 && !cut.isEmpty()) {
            throw new ReviewException("no whole decision-log record in " + names(logs) + ", only a cut-off last line ("
                    + cut.get(0) + ")");
        }
        if (records == 0) { // nothing to replay is a mistake (a wrong file), not an agreeing log
            throw new ReviewException(logs.isEmpty() ? "no decision-log file given, only values files"
                    : (logs.size() == 1 ? logs.get(0) + " is empty" : "every file given is empty (" + names(logs)
                    + ")") + ": no decision-log records");
        }
        if (notRecords == records) { // e.g. a decision input given for a log: a wrong file, not a tampered log
            throw new ReviewException("no line of " + names(logs) + " is a decision-log record (the first, "
                    + mismatches.get(0) + ")");
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
            out.println("replayed " + (records - faults - missing - repeats.size()) + " records (" + distinct + " distinct"
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
                        + " value, which is never kept, or a values file not given"
                        + (standIns.cutLines().isEmpty() ? "" : ", or one in a values file's cut-off last line") + ")");
            }
            if (!repeats.isEmpty()) {
                out.println("replayed once " + repeats.size() + " record(s) read again with the same decision id and"
                        + " contents (a file given twice?): " + String.join(", ", repeats.subList(0,
                        Math.min(3, repeats.size()))) + (repeats.size() > 3 ? ", …" : ""));
            }
            if (!empty.isEmpty()) {
                out.println("no records in " + names(empty) + ": empty (as the live file is just after a rotation)");
            }
            for (String line : standIns.cutLines()) {
                out.println("not read: the last line of a values file " + line + " is cut off, no line break at its"
                        + " end (a copy taken while it was being written, or a crash)");
            }
            for (String line : cut) {
                out.println("not replayed: the last line " + line + " is cut off, no line break at its end (a copy"
                        + " taken while it was being written, or a crash; the gateway cuts it when it opens the file)");
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

    /**
     * Takes one line of a log: a record to replay, or a mismatch when it is not one. A decision id read before is
     * replayed once: the same line again (a file given twice, a copied rotation) is counted as a repeat; a different
     * record under the same id contradicts the log, which holds one record per decision, and is a mismatch.
     */
    private void read(String where, String line, StandIns standIns) {
        records++;
        JsonNode logged;
        try {
            logged = Opa.JSON.readTree(line);
        } catch (JsonProcessingException e) { // a member given twice too: which one did the gateway log?
            mismatches.add(where + ": not a JSON record (" + (e.getLocation() == null ? ""
                    : "column " + e.getLocation().getColumnNr() + ": ") + e.getOriginalMessage() + ")");
            notRecords++;
            return;
        }
        String id = logged.path("decision_id").asText("");
        if (!id.isEmpty()) {
            Seen first = ids.putIfAbsent(id, new Seen(where, logged));
            if (first != null) {
                if (first.logged().equals(logged)) {
                    repeats.add(where + " repeats " + first.where());
                } else {
                    mismatches.add(where + " " + describe(logged) + ": a second, different record with this decision"
                            + " id (the first is " + first.where() + ")");
                }
                return;
            }
        }
        JsonNode rec = logged;
        if (logged.has("reduced") || logged.has("redacted") || logged.has("redactedKeys")) {
            Optional<ObjectNode> whole = standIns.restore(logged);
            if (whole.isEmpty()) {
                missing++;
                return;
            }
            rec = whole.get();
            restored++;
        }
        if (rec.has("fault") || rec.path("quota").path("limit").asText().equals("share")) {
            faults++; // nothing was evaluated: a PDP fault, or a call refused for its fair share
            return;
        }
        String path = rec.path("path").asText("");
        if (!PATH.matcher(path).matches() || !rec.has("input") || !rec.has("result")) {
            mismatches.add(where + ": not a decision record (needs path, input and result)");
            notRecords++;
            return;
        }
        if (rec.has("masked")) {
            masked++;
        }
        revisions.merge(rec.path("bundles").path("gatehouse").path("revision").asText("(none)"), 1, Integer::sum);
        String inconsistent = inconsistency(rec);
        if (inconsistent != null) {
            mismatches.add(where + " " + describe(rec) + ": the record contradicts its own result (" + inconsistent
                    + ")");
        }
        // Equal inputs evaluate to equal results: each distinct input is evaluated once.
        Map<JsonNode, Integer> distinct = inputs.computeIfAbsent(path, k -> new LinkedHashMap<>());
        int input = distinct.computeIfAbsent(rec.get("input"), k -> distinct.size());
        byPath.computeIfAbsent(path, k -> new ArrayList<>()).add(new Entry(where, rec, input));
    }

    private static String names(List<Path> files) {
        return files.stream().map(Path::toString).collect(Collectors.joining(", "));
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
