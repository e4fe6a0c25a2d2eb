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
    public Integer call() throws IOException {
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
        Path inputFile = input;
        boolean record = doc.has("decision_id") && doc.has("input");
        if (record) {
            inputFile = Files.createTempFile("gatehouse-explain-" + doc.path("decision_id").asText("input") + "-", ".json");
            Opa.JSON.writerWithDefaultPrettyPrinter().writeValue(inputFile.toFile(), doc.get("input"));
            doc = doc.get("input");
        }
        try (PolicySource policy = source.open()) {
            Explanation e = Explanation.of(opa, policy, doc, trace);
            if (e.derived()) {
                // A call as written by hand: the facts the gateway derives from its arguments were derived by the
                // gateway's own fact builder (a logged record's input carries them already).
                // A record's input file is overwritten rather than left behind unnamed beside a second one.
                inputFile = record ? inputFile : Files.createTempFile("gatehouse-explain-input-", ".json");
                Opa.JSON.writerWithDefaultPrettyPrinter().writeValue(inputFile.toFile(), e.input());
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
}
