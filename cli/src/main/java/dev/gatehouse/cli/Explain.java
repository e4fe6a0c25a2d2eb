package dev.gatehouse.cli;

import static dev.gatehouse.cli.GatehouseCli.DECISION;
import static dev.gatehouse.cli.GatehouseCli.readJson;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code gatehouse explain}: the decision for one input, with the rule family of each reason code. */
@Command(name = "explain", mixinStandardHelpOptions = true,
        description = "The decision for one input: allow, reasons with the rule family each code belongs to,"
                + " obligations, and the opa command that reproduces it.")
final class Explain implements Callable<Integer> {
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
