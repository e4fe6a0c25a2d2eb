package dev.gatehouse.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.review.Explanation;
import dev.gatehouse.review.Opa;
import dev.gatehouse.review.PolicySource;
import dev.gatehouse.review.ReviewException;
import dev.gatehouse.review.TextFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code gatehouse explain}: the decision for one input, with the rule family of each reason code. */
@Command(name = "explain", mixinStandardHelpOptions = true,
        description = "The decision for one input: allow, reasons with the rule family each code belongs to,"
                + " obligations, the opa eval --explain trace, and the opa command that reproduces it.")
final class Explain implements Callable<Integer> {
    /** A decision id that can name a file: the gateway's are UUIDs; anything else names it "record". */
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9-]{1,64}");

    @Spec
    CommandSpec spec;

    @Mixin
    Source source = new Source();

    @Option(names = "--input", required = true, paramLabel = "FILE",
            description = "a decision input (schemas/decision-input.json) or one decision-log record")
    Path input;

    @Option(names = "--trace", paramLabel = "MODE", defaultValue = "fails",
            description = "the opa eval --explain mode of the trace: fails (default: what did not hold on the"
                    + " way to the answer), notes, full, or off")
    String trace;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (!List.of("fails", "notes", "full", "off").contains(trace)) {
            throw new ReviewException("--trace is one of fails, notes, full, off");
        }
        Opa opa = source.opa();
        JsonNode doc = TextFile.json(input);
        if (!doc.isObject()) { // null, an array: nothing to decide, not a call without arguments
            throw new ReviewException(input + " is not a decision input: a JSON object (schemas/decision-input.json)"
                    + " or one decision-log record is required");
        }
        boolean record = doc.has("decision_id") && doc.has("input");
        String id = doc.path("decision_id").asText("");
        String name = !record ? "input" : ID.matcher(id).matches() ? id : "record";
        try (PolicySource policy = source.open()) {
            Explanation e = Explanation.of(opa, policy, record ? doc.get("input") : doc, trace);
            // Written only now that opa has answered: a fault, or an interrupt while opa runs, leaves no file behind.
            Path inputFile = record || e.derived() ? written(e.input(), name) : input;
            if (e.derived()) {
                // A call as written by hand: the facts the gateway derives from its arguments were derived by the
                // gateway's own fact builder (a logged record's input carries them already).
                out.println("note:        derived the facts of the arguments as the gateway does (" + inputFile
                        + ")");
            }
            JsonNode in = e.input();
            out.println("policy:      " + e.policy() + " @ " + e.revision());
            out.println("tool:        " + in.path("tool").asText("(none)") + "    caller: "
                    + in.path("caller").path("kind").asText("?") + " "
                    + in.path("caller").path("logicalAgentId").asText("?")
                    + (in.path("caller").has("threadId") ? "/" + in.path("caller").path("threadId").asText() : ""));
            if (e.undefined()) {
                out.println("decision:    UNDEFINED (the policy gave no decision: the PEP denies with policy_unavailable)");
            } else {
                out.println("decision:    " + (e.allow() ? "ALLOW" : "DENY"));
                out.println(e.reasons().isEmpty() ? "reasons:     none" : "reasons:");
                for (Explanation.Reason r : e.reasons()) {
                    out.println("  " + r.code() + "  [" + r.where() + "]");
                    out.println("      " + r.message());
                }
                out.println("obligations: " + (e.obligations().isEmpty() ? "none" : String.join("  ", e.obligations())));
                out.println("failed rule families: " + (e.failed().isEmpty() ? "none" : String.join(", ", e.failed())));
                out.println("families without a reason: " + (e.quiet().isEmpty() ? "none" : String.join(", ", e.quiet())));
            }
            if (!e.trace().isEmpty()) {
                out.println("trace (opa eval --explain=" + e.traceMode() + "):");
                e.trace().lines().forEach(line -> out.println("  " + line));
            }
            out.println("reproduce:");
            out.println("  " + e.reproduce(opa.binary().toString(), policy.reproduceArgs(), inputFile.toString()));
            if (record) {
                out.println("  (the record's input was written to " + inputFile + ")");
            }
        }
        return 0;
    }

    /**
     * {@code input} in a new temporary file named after {@code name}, for the reproducing command (it outlives the
     * run: the reader pastes the command later); nothing is left when it cannot be written whole.
     */
    private static Path written(JsonNode input, String name) {
        Path file = null;
        try {
            file = Files.createTempFile("gatehouse-explain-" + name + "-", ".json");
            Opa.JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), input);
            return file;
        } catch (IOException e) {
            deleteQuietly(file);
            throw new ReviewException("cannot write the input for the reproducing command"
                    + (file == null ? "" : " (" + file + ")") + ": " + e.getMessage());
        }
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // the write failed already; that is what is reported
            }
        }
    }
}
