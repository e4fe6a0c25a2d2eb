package dev.gatehouse.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code gatehouse} — the policy reviewer's CLI. Every answer is the pinned {@code opa} evaluating
 * {@code data.gatehouse.authz.decision} / {@code visible_tools} on a policies directory or a bundle; the CLI knows
 * no rule. Exit codes: 0 fine, 1 a replay mismatch, 2 a usage or setup error.
 */
@Command(name = "gatehouse", mixinStandardHelpOptions = true, version = "gatehouse review CLI 0.1.0",
        description = "Explain, replay, tabulate and diff Gatehouse policy decisions with the pinned opa binary.",
        subcommands = {GatehouseCli.Explain.class, GatehouseCli.Replay.class, GatehouseCli.MatrixCmd.class,
                GatehouseCli.Diff.class})
public final class GatehouseCli implements Runnable {

    static final String DECISION = "data.gatehouse.authz.decision";

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args, new PrintWriter(System.out, true, StandardCharsets.UTF_8),
                new PrintWriter(System.err, true, StandardCharsets.UTF_8)));
    }

    /** Runs one command line with the given streams; returns the exit code (the tests call this). */
    static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cli = new CommandLine(new GatehouseCli());
        cli.setOut(out);
        cli.setErr(err);
        cli.setExecutionExceptionHandler((e, line, parsed) -> {
            line.getErr().println("gatehouse: " + (e instanceof CliException ? e.getMessage() : e.toString()));
            line.getErr().flush();
            return 2;
        });
        cli.setExitCodeExceptionMapper(e -> 2);
        int rc = cli.execute(args);
        out.flush();
        err.flush();
        return rc;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Where the policy comes from, and which opa runs it. */
    static final class Source {
        @Option(names = "--bundle", paramLabel = "BUNDLE.tar.gz",
                description = "a Rego policy bundle (make bundle: target/bundle/rego-bundle.tar.gz)")
        Path bundle;

        @Option(names = "--policies", paramLabel = "DIR", description = "a policies directory (default: the checkout's policies/)")
        Path policies;

        @Option(names = "--opa", paramLabel = "PATH",
                description = "the opa binary (default: $GATEHOUSE_OPA, else ~/.cache/gatehouse/opa-" + Opa.PINNED + "/opa)")
        String opa;

        PolicySource open() {
            return PolicySource.of(bundle, policies);
        }

        Opa opa() {
            return Opa.locate(opa);
        }
    }

    // --- explain -------------------------------------------------------------------------------------

    @Command(name = "explain", mixinStandardHelpOptions = true,
            description = "The decision for one input: allow, reasons with the rule family each code belongs to,"
                    + " obligations, and the opa command that reproduces it.")
    static final class Explain implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        Source source = new Source();

        @Option(names = "--input", required = true, paramLabel = "FILE",
                description = "a decision input (schemas/decision-input.json) or one decision-log record")
        Path input;

        @Override
        public Integer call() throws IOException {
            PrintWriter out = spec.commandLine().getOut();
            Opa opa = source.opa();
            JsonNode doc = readJson(input);
            Path inputFile = input;
            boolean record = doc.has("decision_id") && doc.has("input");
            if (record) {
                inputFile = Files.createTempFile("gatehouse-explain-" + doc.path("decision_id").asText("input") + "-", ".json");
                Opa.JSON.writerWithDefaultPrettyPrinter().writeValue(inputFile.toFile(), doc.get("input"));
                doc = doc.get("input");
            }
            try (PolicySource policy = source.open()) {
                if (doc.isObject() && doc.has("tool") && !doc.has("argumentKeys")) {
                    // A call as written by hand: the facts the gateway derives from its arguments are derived here by
                    // the gateway's own fact builder (a logged record's input carries them already).
                    doc = Calls.of(policy).input((ObjectNode) doc);
                    inputFile = Files.createTempFile("gatehouse-explain-input-", ".json");
                    Opa.JSON.writerWithDefaultPrettyPrinter().writeValue(inputFile.toFile(), doc);
                    out.println("note:        derived the facts of the arguments as the gateway does (" + inputFile
                            + ")");
                }
                JsonNode d = opa.eval(policy, DECISION, doc);
                Families families = Families.load(opa, policy);
                out.println("policy:      " + policy.label() + " @ " + policy.revision());
                out.println("tool:        " + doc.path("tool").asText("(none)") + "    caller: "
                        + doc.path("caller").path("kind").asText("?") + " "
                        + doc.path("caller").path("logicalAgentId").asText("?")
                        + (doc.path("caller").has("threadId") ? "/" + doc.path("caller").path("threadId").asText() : ""));
                if (d.isMissingNode()) {
                    out.println("decision:    UNDEFINED (the policy gave no decision: the PEP denies with policy_unavailable)");
                } else {
                    boolean allow = d.path("allow").isBoolean() && d.path("allow").asBoolean();
                    out.println("decision:    " + (allow ? "ALLOW" : "DENY"));
                    Set<String> failed = new LinkedHashSet<>();
                    if (d.path("reasons").isEmpty()) {
                        out.println("reasons:     none");
                    } else {
                        out.println("reasons:");
                    }
                    for (JsonNode r : d.path("reasons")) {
                        String code = r.path("code").asText();
                        String where = families.of(code)
                                .map(f -> {
                                    failed.add(f.name());
                                    return f.name() + (f.title().isEmpty() ? "" : " (" + f.title() + ")") + ", "
                                            + f.file() + ":" + f.row();
                                })
                                .orElse("no rule of the policy declares this code in its METADATA");
                        out.println("  " + code + "  [" + where + "]");
                        out.println("      " + r.path("message").asText());
                    }
                    List<String> leaves = Obligations.leaves(d.path("obligations"));
                    out.println("obligations: " + (leaves.isEmpty() ? "none" : String.join("  ", leaves)));
                    List<String> passed = new ArrayList<>(families.names());
                    passed.removeAll(failed);
                    out.println("failed rule families: " + (failed.isEmpty() ? "none" : String.join(", ", failed)));
                    out.println("families without a reason: " + (passed.isEmpty() ? "none" : String.join(", ", passed)));
                }
                out.println("reproduce:");
                out.println("  " + Shell.quote(opa.binary().toString()) + " eval --explain=notes --format pretty "
                        + policy.reproduceArgs() + " -i " + Shell.quote(inputFile.toString()) + " '" + DECISION + "'");
                if (record) {
                    out.println("  (the record's input was written to " + inputFile + ")");
                }
            }
            return 0;
        }
    }

    // --- replay --------------------------------------------------------------------------------------

    @Command(name = "replay", mixinStandardHelpOptions = true,
            description = "Re-evaluates every decision-log record (schemas/decision-log-record.json) against the policy"
                    + " and lists each record whose result differs. Files are read in the order given (rotated logs"
                    + " oldest first); the values file beside each (<name>.values<ext>) is read too, and values files"
                    + " given are used, not replayed. Values the log stood in for are put back by their SHA-256."
                    + " Records with faults, or needing a value no values file holds, are counted and skipped."
                    + " Exit 1 on any mismatch.")
    static final class Replay implements Callable<Integer> {
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
                    throw new CliException("cannot read " + file + ": " + e.getOriginalMessage());
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
                    throw new CliException("cannot read " + file + ": " + e.getMessage());
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

    // --- matrix --------------------------------------------------------------------------------------

    @Command(name = "matrix", mixinStandardHelpOptions = true,
            description = "Caller profiles × tools of the access table → decision, reason codes and obligations,"
                    + " as a static HTML page (one opa eval for every cell).")
    static final class MatrixCmd implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        Source source = new Source();

        @Option(names = "--out", required = true, paramLabel = "matrix.html")
        Path out;

        @Option(names = "--profiles", paramLabel = "FILE", description = "caller profiles (default: " + Defaults.PROFILES + ")")
        Path profiles;

        @Override
        public Integer call() throws IOException {
            Opa opa = source.opa();
            try (PolicySource policy = source.open()) {
                Matrix m = Matrix.compute(opa, policy, profiles != null ? profiles : Defaults.profiles());
                write(out, Html.matrix(m));
                long allowed = m.profiles().stream()
                        .flatMap(p -> m.tools().stream().map(t -> m.cell(p, t)))
                        .filter(Matrix.Cell::allow).count();
                spec.commandLine().getOut().println("wrote " + out + ": " + m.profiles().size() + " profiles × "
                        + m.tools().size() + " tools, " + allowed + " allowed, revision " + m.revision());
            }
            return 0;
        }
    }

    // --- diff ----------------------------------------------------------------------------------------

    @Command(name = "diff", mixinStandardHelpOptions = true,
            description = "The matrix cells that change between two policies (each a bundle .tar.gz or a policies"
                    + " directory), as a table; exit 0 whatever changed.")
    static final class Diff implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--from", required = true, paramLabel = "A") String from;

        @Option(names = "--to", required = true, paramLabel = "B") String to;

        @Option(names = "--profiles", paramLabel = "FILE", description = "caller profiles (default: " + Defaults.PROFILES + ")")
        Path profiles;

        @Option(names = "--out", paramLabel = "diff.html", description = "also write the changes as HTML")
        Path out;

        @Option(names = "--opa", paramLabel = "PATH") String opaPath;

        @Override
        public Integer call() throws IOException {
            PrintWriter w = spec.commandLine().getOut();
            Opa opa = Opa.locate(opaPath);
            Path profilesFile = profiles != null ? profiles : Defaults.profiles();
            Matrix a;
            Matrix b;
            try (PolicySource pa = PolicySource.parse(from); PolicySource pb = PolicySource.parse(to)) {
                a = Matrix.compute(opa, pa, profilesFile);
                b = Matrix.compute(opa, pb, profilesFile);
            }
            List<Html.Change> changes = changes(a, b);
            w.println("from " + a.label() + " @ " + a.revision());
            w.println("to   " + b.label() + " @ " + b.revision());
            if (changes.isEmpty()) {
                w.println("no cell changes (" + a.profiles().size() + " profiles × " + b.tools().size() + " tools)");
            } else {
                w.println(changes.size() + " changed cell(s):");
                int pw = "profile".length();
                int tw = "tool".length();
                int fw = "from".length();
                for (Html.Change c : changes) {
                    pw = Math.max(pw, c.profile().length());
                    tw = Math.max(tw, c.tool().length());
                    fw = Math.max(fw, c.before().length());
                }
                String fmt = "%-" + pw + "s | %-" + tw + "s | %-" + fw + "s | %s%n";
                w.printf(fmt, "profile", "tool", "from", "to");
                w.println("-".repeat(pw) + "-+-" + "-".repeat(tw) + "-+-" + "-".repeat(fw) + "-+-" + "-".repeat(8));
                for (Html.Change c : changes) {
                    w.printf(fmt, c.profile(), c.tool(), c.before(), c.after());
                }
            }
            if (out != null) {
                write(out, Html.diff(a, b, changes));
                w.println("wrote " + out);
            }
            return 0;
        }

        static List<Html.Change> changes(Matrix a, Matrix b) {
            Set<String> tools = new LinkedHashSet<>();
            a.tools().forEach(t -> tools.add(t.name()));
            b.tools().forEach(t -> tools.add(t.name()));
            List<Html.Change> changes = new ArrayList<>();
            for (Matrix.Profile p : a.profiles()) {
                for (String tool : tools) {
                    Matrix.Cell ca = a.cell(p.name(), tool);
                    Matrix.Cell cb = b.cell(p.name(), tool);
                    String sa = ca == null ? "(no such tool)" : ca.summary();
                    String sb = cb == null ? "(no such tool)" : cb.summary();
                    if (!sa.equals(sb)) {
                        changes.add(new Html.Change(p.name(), tool, sa, sb));
                    }
                }
            }
            return changes;
        }
    }


    static JsonNode readJson(Path file) {
        try {
            return Opa.JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new CliException("cannot read " + file + " as JSON: " + e.getMessage());
        }
    }

    static void write(Path file, String text) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
