package dev.gatehouse.gateway.gate;

import dev.gatehouse.gateway.audit.DecisionLog;
import dev.gatehouse.gateway.audit.DecisionRecord;
import dev.gatehouse.gateway.audit.LogResult;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.ServedPolicy;
import dev.gatehouse.gateway.store.StoreUnavailableException;
import dev.gatehouse.gateway.telemetry.DecisionMetrics;
import dev.gatehouse.gateway.telemetry.GateSteps;
import jakarta.inject.Singleton;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The gate's steps, written once for every entry point (docs/design.md, "The gate's steps"; style card 5):
 * {@code facts → arguments → decision → decision-log → enforce}, then the entry point's own action ({@code handler}
 * for tools/call). tools/call and tools/list run them all through {@link #run}; notice delivery gathers one agent's
 * facts once ({@link #facts}) and asks for each of its notices ({@link #decide}). Each step is timed and traced
 * ({@link GateSteps}, named by {@link GateStep}); the PDP's answer time is recorded per method
 * ({@link DecisionMetrics#latency}).
 *
 * <p>What every entry point is guaranteed: the caller takes the served revision once and passes it in, so the row,
 * the schema, the decision and the retryable reasons are all that revision's; the decision (allow, deny or fault) is
 * written to the decision log before {@code enforce} runs, and one that could not be written is not enforced; the
 * PDP's fault, a malformed answer and a store that did not answer are a {@link GateFault}, never a denial.
 */
@Singleton
public class GatePipeline {

    private final PolicyDecisionPoint pdp;
    private final DecisionLog decisionLog;
    private final GateSteps steps;
    private final DecisionMetrics metrics;

    public GatePipeline(PolicyDecisionPoint pdp, DecisionLog decisionLog, GateSteps steps, DecisionMetrics metrics) {
        this.pdp = pdp;
        this.decisionLog = decisionLog;
        this.steps = steps;
        this.metrics = metrics;
    }

    /** What the facts step gathered, or the fault that kept it from gathering them. */
    public sealed interface Gathered<F> {

        /** The facts, as the PIP reported them (failed lookups included, as facts). */
        record Facts<F>(F value) implements Gathered<F> {
            public Facts {
                Objects.requireNonNull(value, "value");
            }
        }

        /** Nothing was gathered ({@link GateFault.Kind#FACTS}). */
        record Unavailable<F>(GateFault fault) implements Gathered<F> {
        }
    }

    /** Where one request came out of the steps. */
    public sealed interface Gated<V> {

        /**
         * The decision was made, logged and enforced.
         *
         * @param decisionId the id the decision log recorded it under
         * @param verdict    what the enforce step made of it
         */
        record Passed<V>(UUID decisionId, V verdict) implements Gated<V> {
            public Passed {
                Objects.requireNonNull(decisionId, "decisionId");
                Objects.requireNonNull(verdict, "verdict");
            }
        }

        /** A step could not be completed; nothing may be done with the request. */
        record Faulted<V>(GateFault fault) implements Gated<V> {
        }
    }

    /**
     * Every step but the entry point's own action, for one request.
     *
     * @param served    the revision the caller took for this request (empty: none is serving, which faults)
     * @param pip       the {@link GateStep#FACTS} step; may throw {@link StoreUnavailableException}
     * @param arguments the {@link GateStep#ARGUMENTS} step: the request for a decision, from the facts
     */
    public <F, O, V> Gated<V> run(Optional<ServedPolicy> served, Supplier<F> pip,
            Function<F, DecisionRequest<O, V>> arguments) {
        Gathered<F> facts = facts(pip);
        if (facts instanceof Gathered.Unavailable<F> unavailable) {
            return new Gated.Faulted<>(unavailable.fault());
        }
        F gathered = ((Gathered.Facts<F>) facts).value();
        return decide(served, () -> arguments.apply(gathered));
    }

    /**
     * The {@link GateStep#FACTS} step: the PIP, entered once.
     *
     * @param pip reads the facts; a {@link StoreUnavailableException} it throws becomes a {@link GateFault.Kind#FACTS}
     *            fault
     */
    public <F> Gathered<F> facts(Supplier<F> pip) {
        try {
            return new Gathered.Facts<>(steps.run(GateStep.FACTS.wire(), pip));
        } catch (StoreUnavailableException e) {
            return new Gathered.Unavailable<>(GateFault.facts("the store did not answer: " + e.getMessage()));
        }
    }

    /**
     * The steps from the decision input to the verdict: {@link GateStep#ARGUMENTS}, {@link GateStep#DECISION},
     * {@link GateStep#DECISION_LOG}, {@link GateStep#ENFORCE}.
     *
     * @param served    the revision the caller took for this request
     * @param arguments builds the request for a decision (its decision input) from facts already gathered
     * @return the verdict under the logged decision id; {@link GateFault.Kind#DECISION_LOG} when the record could not
     *         be written, {@link GateFault.Kind#DECISION} when the PDP did not decide (the fault is logged)
     */
    public <O, V> Gated<V> decide(Optional<ServedPolicy> served, Supplier<DecisionRequest<O, V>> arguments) {
        DecisionRequest<O, V> request = steps.run(GateStep.ARGUMENTS.wire(), arguments);
        PolicyOutcome<O> outcome = decision(served, request);
        // The admission step (quotas; GateStep) goes here: after the decision, before the record that reports it.
        DecisionRecord record = request.record(outcome);
        LogResult logged = steps.run(GateStep.DECISION_LOG.wire(), () -> decisionLog.record(record));
        if (logged instanceof LogResult.NotWritten notWritten) {
            return new Gated.Faulted<>(new GateFault(GateFault.Kind.DECISION_LOG, Optional.of(record.decisionId()),
                    "decision log: " + notWritten.detail()));
        }
        if (!(outcome instanceof PolicyOutcome.Decided<O> decided) || decided.value() == null) {
            return new Gated.Faulted<>(new GateFault(GateFault.Kind.DECISION, Optional.of(record.decisionId()),
                    "the policy decision point did not decide: " + fault(outcome)));
        }
        ServedPolicy deciding = served.orElseThrow(); // a decided outcome came from it
        V verdict = steps.run(GateStep.ENFORCE.wire(), () -> request.enforce(deciding, decided.value()));
        return new Gated.Passed<>(record.decisionId(), verdict);
    }

    /** The {@link GateStep#HANDLER} step: the entry point's action on a verdict that allows one. */
    public <R> R handler(Supplier<R> action) {
        return steps.run(GateStep.HANDLER.wire(), action);
    }

    /** The {@link GateStep#HANDLER} step of an action that answers nothing (a notice's send, which stores its end). */
    public void handler(Runnable action) {
        steps.run(GateStep.HANDLER.wire(), () -> {
            action.run();
            return null;
        });
    }

    /** The {@link GateStep#DECISION} step on the revision taken, recording the PDP's answer time. */
    private <O> PolicyOutcome<O> decision(Optional<ServedPolicy> served, DecisionRequest<O, ?> request) {
        long start = System.nanoTime();
        try {
            return steps.run(GateStep.DECISION.wire(), () -> served.map(request::evaluate)
                    .orElseGet(pdp::noRevision));
        } finally {
            metrics.latency(request.method().wire(), System.nanoTime() - start);
        }
    }

    private static String fault(PolicyOutcome<?> outcome) {
        return outcome instanceof PolicyOutcome.Failed<?> failed
                ? failed.fault().code() + " (" + failed.fault().detail() + ")"
                : "no answer";
    }
}
