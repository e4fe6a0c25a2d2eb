package dev.gatehouse.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One decision explained by OPA itself: the decision {@code opa eval} gives for the input on a policy, each reason
 * with the rule family whose METADATA declares its code, the obligations, which families gave a reason and which
 * did not, and the {@code opa eval --explain} trace. What {@code scripts/gatehouse explain} prints and the console's
 * decision page shows.
 *
 * @param policy        where the policy came from ({@link PolicySource#label()})
 * @param revision      its revision
 * @param input         the input evaluated: as given, or with the facts the gateway derives for a call written by
 *                      hand ({@code derived})
 * @param derived       whether the argument facts were derived here ({@link Calls#input}); a logged record's input
 *                      carries them already
 * @param decision      the value of {@code data.gatehouse.authz.decision}; a missing node when undefined
 * @param reasons       its reasons, in order
 * @param obligations   its obligations as {@code a.b=value} leaves
 * @param failed        families that gave a reason, in the order of the reasons
 * @param quiet         families that declare codes and gave none here
 * @param traceMode     the {@code --explain} mode of {@code trace}, {@code off} for none
 * @param trace         what {@code opa eval --explain=<traceMode> --format pretty} printed
 */
public record Explanation(String policy, String revision, JsonNode input, boolean derived, JsonNode decision,
        List<Reason> reasons, List<String> obligations, List<String> failed, List<String> quiet, String traceMode,
        String trace) {

    /** The query every explanation evaluates. */
    public static final String DECISION = "data.gatehouse.authz.decision";

    /**
     * One reason of the decision.
     *
     * @param family the family whose rule declares the code in its METADATA; empty when none does
     */
    public record Reason(String code, String message, Optional<Families.Family> family) {

        /** {@code family (title), file:row}, or a sentence saying no rule declares the code. */
        public String where() {
            return family.map(f -> f.name() + (f.title().isEmpty() ? "" : " (" + f.title() + ")") + ", " + f.file()
                    + ":" + f.row()).orElse("no rule of the policy declares this code in its METADATA");
        }
    }

    public Explanation {
        reasons = List.copyOf(reasons);
        obligations = List.copyOf(obligations);
        failed = List.copyOf(failed);
        quiet = List.copyOf(quiet);
    }

    /**
     * Explains {@code input} on {@code policy}: a decision input (schemas/decision-input.json); one with {@code tool}
     * but no {@code argumentKeys} is a call written by hand and gets the facts the gateway derives from its
     * arguments, from the policy's own access table and schemas.
     *
     * @param traceMode {@code fails} (what did not hold on the way to the answer), {@code notes}, {@code full}, or
     *                  {@code off}
     * @throws ReviewException when opa cannot run, fails or takes too long, or the policy cannot be read
     */
    public static Explanation of(Opa opa, PolicySource policy, JsonNode input, String traceMode) {
        boolean derived = input.isObject() && input.has("tool") && !input.has("argumentKeys");
        JsonNode evaluated = derived ? Calls.of(policy).input((ObjectNode) input) : input;
        JsonNode decision = opa.eval(policy, DECISION, evaluated);
        Families families = Families.load(opa, policy);
        List<Reason> reasons = new ArrayList<>();
        Set<String> failed = new LinkedHashSet<>();
        for (JsonNode r : decision.path("reasons")) {
            Optional<Families.Family> family = families.of(r.path("code").asText());
            family.ifPresent(f -> failed.add(f.name()));
            reasons.add(new Reason(r.path("code").asText(), r.path("message").asText(), family));
        }
        List<String> quiet = new ArrayList<>(families.names());
        quiet.removeAll(failed);
        String trace = "off".equals(traceMode) ? "" : opa.explain(policy, DECISION, evaluated, traceMode);
        return new Explanation(policy.label(), policy.revision(), evaluated, derived, decision, reasons,
                Obligations.leaves(decision.path("obligations")), new ArrayList<>(failed), quiet, traceMode, trace);
    }

    /** Whether the policy gave no decision (the PEP denies that with {@code policy_unavailable}). */
    public boolean undefined() {
        return !decision.isObject();
    }

    /** Whether the decision allows: only a JSON {@code true}. */
    public boolean allow() {
        return decision.path("allow").isBoolean() && decision.path("allow").asBoolean();
    }

    /**
     * The command that prints this trace again, for a reader to paste.
     *
     * @param opaBinary how to name the opa binary
     * @param source    the policy argument, e.g. {@code -b bundle.tar.gz} ({@link PolicySource#reproduceArgs()})
     * @param inputFile where the input is
     */
    public String reproduce(String opaBinary, String source, String inputFile) {
        return Shell.quote(opaBinary) + " eval --explain=" + ("off".equals(traceMode) ? "fails" : traceMode)
                + " --format pretty " + source + " -i " + Shell.quote(inputFile) + " '" + DECISION + "'";
    }
}
