package dev.gatehouse.gateway.gate;

import dev.gatehouse.gateway.audit.DecisionRecord;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.ServedPolicy;
import dev.gatehouse.gateway.quota.Admission;
import java.util.Optional;

/**
 * One request for a decision at one entry point of the policy, made in the {@link GateStep#ARGUMENTS} step from the
 * facts: its decision input and what the gate needs to carry the answer out. {@link GatePipeline#decide} asks it,
 * logs it and enforces it in that order, the same for every entry point; an implementation says only what differs
 * (tools/call: {@link ToolCallRequest}, tools/list: {@link ToolListRequest}, a notice: {@code notice.NoticeRequest}).
 *
 * @param <O> what the PDP answers at this entry point
 * @param <V> what the enforce step makes of a decided answer (the verdict the entry point acts on)
 */
public interface DecisionRequest<O, V> {

    /** The method the decision record and the decision latency are labelled with. */
    DecisionRecord.Method method();

    /** The {@link GateStep#DECISION} step: this request's entry point evaluated on {@code policy}. */
    PolicyOutcome<O> evaluate(ServedPolicy policy);

    /** The record the {@link GateStep#DECISION_LOG} step writes for {@code outcome}: this input and that answer. */
    DecisionRecord record(PolicyOutcome<O> outcome);

    /**
     * What the {@link GateStep#QUOTA} step charges for {@code outcome} (docs/domain.md §10): the call's decision
     * outcome at an entry point that is charged to quotas (tools/call); empty at one that never is (tools/list,
     * notices), for which the step does not run.
     */
    default Optional<PolicyOutcome<Decision>> charged(PolicyOutcome<O> outcome) {
        return Optional.empty();
    }

    /**
     * The record of {@code outcome} and what the {@link GateStep#QUOTA} step made of it; an entry point that is never
     * charged writes {@link #record(PolicyOutcome)}.
     */
    default DecisionRecord record(PolicyOutcome<O> outcome, Admission admission) {
        return record(outcome);
    }

    /**
     * The {@link GateStep#ENFORCE} step: what the logged answer lets the gate do. Anything the PEP cannot carry out
     * as decided (an allow without an obligation its row implies) is a denial here, never a partial allow.
     *
     * @param policy the revision that decided (its catalogue says which reasons are retryable)
     * @param answer the PDP's well-formed answer
     */
    V enforce(ServedPolicy policy, O answer);
}
