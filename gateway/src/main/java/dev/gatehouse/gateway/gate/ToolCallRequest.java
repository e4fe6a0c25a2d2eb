package dev.gatehouse.gateway.gate;

import dev.gatehouse.facts.AccessRow;
import dev.gatehouse.facts.ArgumentFacts;
import dev.gatehouse.facts.ArgumentLimits;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.facts.WrittenInput;
import dev.gatehouse.gateway.audit.DecisionRecord;
import dev.gatehouse.gateway.context.ResolvedCaller;
import dev.gatehouse.gateway.context.TrustedContext;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.Obligations;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.ServedPolicy;
import dev.gatehouse.gateway.quota.Admission;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * tools/call at the entry point {@code decision} (schemas/decision.json): the decision input of one call and what
 * enforcing its decision needs. Its enforce step allows only a literal allow for a served tool with an object of
 * arguments and every obligation its row implies (a resolved mode for each mode field, a resolved wiki path for each
 * path field and the wiki root when it has any) and the quota every allowed call is charged to (docs/domain.md §10:
 * an allow without one is {@code policy_unavailable}); the check knows fields, not tools (docs/design.md, "Decision
 * contract"). A call is the one request the {@link GateStep#QUOTA} step charges.
 *
 * @param input     the decision input, with the facts {@link ArgumentFacts#of} derived from the arguments
 * @param written   the input written once for the memo, the engine and the decision log; empty when it cannot be
 *                  written (then the engine reports its fault, and the log that the record cannot be written)
 * @param tool      the tool as the deciding revision serves it; empty for a name it does not serve
 * @param arguments the arguments as received, which an allowed call's handler gets
 * @param caller    the PIP's answer for the call
 */
record ToolCallRequest(DecisionInput input, Optional<WrittenInput> written, Optional<ServedTool> tool,
        Object arguments, ResolvedCaller caller) implements DecisionRequest<Decision, ToolCallRequest.Verdict> {

    private static final Logger LOG = LoggerFactory.getLogger(ToolCallRequest.class);

    ToolCallRequest {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(written, "written");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(caller, "caller");
    }

    /** What the enforce step made of a decision. */
    sealed interface Verdict {
    }

    /** The call may run: its handler gets these arguments, the decision's obligations and the caller's context. */
    record Allowed(ServedTool tool, Map<String, Object> arguments, Obligations obligations, TrustedContext context)
            implements Verdict {
    }

    /**
     * The call may not run.
     *
     * @param reasons   the policy's reasons, or {@code policy_unavailable} when it allowed what cannot be enforced
     * @param retryable every reason is one the deciding revision's catalogue calls retryable (docs/domain.md §8)
     */
    record Denied(List<Decision.Reason> reasons, boolean retryable) implements Verdict {
    }

    /**
     * The {@link GateStep#ARGUMENTS} step of a call: the facts of its arguments, derived once
     * ({@link ArgumentFacts#of}: closed-schema violations, argument keys by meaning, Unicode categories, the envelope),
     * and the decision input they make, written ({@link WrittenInput}).
     *
     * @param name the name as received (an unknown one is decided by the policy: {@code unknown_tool})
     */
    static ToolCallRequest of(String name, Optional<ServedTool> tool, Object arguments, ResolvedCaller caller,
            ArgumentLimits limits) {
        ArgumentFacts facts = ArgumentFacts.of(tool.map(ServedTool::schema), tool.map(ServedTool::row), arguments,
                limits, caller.facts().subtreeIds());
        DecisionInput input = new DecisionInput(name, facts, caller.facts(), caller.targets());
        return new ToolCallRequest(input, WrittenInput.forCall(input), tool, arguments, caller);
    }

    /** The thread ids a call names, for the facts step: none for a name the revision does not serve. */
    static List<String> targetThreadIds(Optional<ServedTool> tool, Object arguments) {
        return tool.map(served -> served.row().threadIds(arguments, served.schema().envelope())).orElse(List.of());
    }

    @Override
    public DecisionRecord.Method method() {
        return DecisionRecord.Method.TOOLS_CALL;
    }

    @Override
    public PolicyOutcome<Decision> evaluate(ServedPolicy policy) {
        return written.map(json -> policy.decide(input, json)).orElseGet(() -> policy.decide(input));
    }

    @Override
    public DecisionRecord record(PolicyOutcome<Decision> outcome) {
        return record(outcome, new Admission.NotCharged());
    }

    @Override
    public Optional<PolicyOutcome<Decision>> charged(PolicyOutcome<Decision> outcome) {
        return Optional.of(outcome);
    }

    @Override
    public DecisionRecord record(PolicyOutcome<Decision> outcome, Admission admission) {
        return DecisionRecord.forCall(input, written, caller.context().provider(), outcome, admission);
    }

    @Override
    @SuppressWarnings("unchecked")
    public Verdict enforce(ServedPolicy policy, Decision decision) {
        if (!decision.allow()) {
            List<Decision.Reason> reasons = decision.reasons().isEmpty()
                    ? List.of(GateReasons.policyUnavailable()) : decision.reasons();
            return new Denied(reasons, reasons.stream().allMatch(reason ->
                    GateReasons.POLICY_UNAVAILABLE.equals(reason.code())
                            || policy.contents().retryable(reason.code())));
        }
        if (tool.isEmpty() || !(arguments instanceof Map<?, ?>)
                || !carriesObligations(tool.get().row(), decision.obligations())) {
            LOG.error("policy allowed {} without the obligations its row needs; denying", tool.map(ServedTool::name));
            return new Denied(List.of(GateReasons.policyUnavailable()), true);
        }
        return new Allowed(tool.get(), (Map<String, Object>) arguments, decision.obligations(), caller.context());
    }

    private static boolean carriesObligations(AccessRow row, Obligations obligations) {
        return obligations.modes().keySet().containsAll(row.modeFields().values())
                && obligations.wikiPaths().keySet().containsAll(row.pathFields())
                && (row.pathFields().isEmpty() || obligations.wikiRoot().isPresent())
                && obligations.quota().isPresent();
    }
}
