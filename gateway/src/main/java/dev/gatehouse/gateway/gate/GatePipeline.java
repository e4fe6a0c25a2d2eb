package dev.gatehouse.gateway.gate;

import dev.gatehouse.gateway.audit.DecisionLog;
import dev.gatehouse.gateway.audit.DecisionRecord;
import dev.gatehouse.gateway.audit.LogResult;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.ServedPolicy;
import dev.gatehouse.gateway.quota.Admission;
import dev.gatehouse.gateway.quota.QuotaStep;
import dev.gatehouse.gateway.store.StoreUnavailableException;
import dev.gatehouse.gateway.telemetry.DecisionMetrics;
import dev.gatehouse.gateway.telemetry.GateSteps;
import jakarta.inject.Singleton;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The gate's steps, written once for every entry point (docs/design.md, "The gate's steps"; style card 5):
 * {@code facts → arguments → decision → quota → decision-log → enforce}, then the entry point's own action
 * ({@code handler} for tools/call); {@code quota} runs only for an entry point that is charged (tools/call,
 * {@link DecisionRequest#charged}). Every entry point gathers its facts once ({@link #facts}) and asks for each
 * decision ({@link #decide}): tools/call and tools/list once each, between them taking a place of the caller's fair
 * share ({@code Gate}), notice delivery once for each of one agent's notices. Each step is timed and traced
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
    private final QuotaStep quotas;

    public GatePipeline(PolicyDecisionPoint pdp, DecisionLog decisionLog, GateSteps steps, DecisionMetrics metrics,
            QuotaStep quotas) {
        this.pdp = pdp;
        this.decisionLog = decisionLog;
        this.steps = steps;
        this.metrics = metrics;
        this.quotas = quotas;
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

        /**
         * The request was refused {@code rate_limited} (docs/domain.md §10), and the refusal logged: the decision
         * allowed it but the {@link GateStep#QUOTA} step found its bucket empty, or ({@link #refused}) its caller had
         * every place of its fair share and nothing was decided. Not enforced, never handled. Only tools/call comes
         * here.
         *
         * @param decisionId   the id the decision log recorded it under (the record names the refusal)
         * @param retryAfterMs when to try again, in ms (at least 1)
         */
        record RateLimited<V>(UUID decisionId, long retryAfterMs) implements Gated<V> {
            public RateLimited {
                Objects.requireNonNull(decisionId, "decisionId");
            }
        }
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
     * {@link GateStep#QUOTA} (when the request is charged), {@link GateStep#DECISION_LOG}, {@link GateStep#ENFORCE}.
     *
     * @param served    the revision the caller took for this request
     * @param arguments builds the request for a decision (its decision input) from facts already gathered
     * @return the verdict under the logged decision id; {@link GateFault.Kind#DECISION_LOG} when the record could not
     *         be written, {@link GateFault.Kind#DECISION} when the PDP did not decide (the fault is logged),
     *         {@link Gated.RateLimited} when the quota step refused an allow (logged, not enforced),
     *         {@link GateFault.Kind#QUOTA} when it could not charge one in the request's time (logged, not enforced)
     */
    public <O, V> Gated<V> decide(Optional<ServedPolicy> served, Supplier<DecisionRequest<O, V>> arguments) {
        DecisionRequest<O, V> request = steps.run(GateStep.ARGUMENTS.wire(), arguments);
        PolicyOutcome<O> outcome = decision(served, request);
        Optional<PolicyOutcome<Decision>> charged = request.charged(outcome);
        Admission admission = charged.isEmpty() ? new Admission.NotCharged()
                : steps.run(GateStep.QUOTA.wire(), () -> quotas.admit(charged.get()));
        DecisionRecord record = request.record(outcome, admission);
        LogResult logged = steps.run(GateStep.DECISION_LOG.wire(), () -> decisionLog.record(record));
        if (logged instanceof LogResult.NotWritten notWritten) {
            return new Gated.Faulted<>(new GateFault(GateFault.Kind.DECISION_LOG, Optional.of(record.decisionId()),
                    "decision log: " + notWritten.detail()));
        }
        if (!(outcome instanceof PolicyOutcome.Decided<O> decided) || decided.value() == null) {
            return new Gated.Faulted<>(new GateFault(GateFault.Kind.DECISION, Optional.of(record.decisionId()),
                    "the policy decision point did not decide: " + fault(outcome)));
        }
        if (admission instanceof Admission.OverBudget over) {
            return new Gated.RateLimited<>(record.decisionId(), over.retryAfterMs());
        }
        if (admission instanceof Admission.TimeSpent) {
            return new Gated.Faulted<>(new GateFault(GateFault.Kind.QUOTA, Optional.of(record.decisionId()),
                    "quota: the request's store time was spent before its bucket was read"));
        }
        ServedPolicy deciding = served.orElseThrow(); // a decided outcome came from it
        V verdict = steps.run(GateStep.ENFORCE.wire(), () -> request.enforce(deciding, decided.value()));
        return new Gated.Passed<>(record.decisionId(), verdict);
    }

    /**
     * A request refused before its decision because its caller had every place of its fair share (docs/domain.md
     * §10): nothing is decided, and only the {@link GateStep#DECISION_LOG} step runs, for the record that says so.
     *
     * @param record       the refusal's record ({@link DecisionRecord#forOverShare})
     * @param retryAfterMs when a place is likely free, in ms (at least 1)
     * @return {@link Gated.RateLimited} under the record's id, or {@link GateFault.Kind#DECISION_LOG} when it could not
     *         be written
     */
    public <V> Gated<V> refused(DecisionRecord record, long retryAfterMs) {
        LogResult logged = steps.run(GateStep.DECISION_LOG.wire(), () -> decisionLog.record(record));
        if (logged instanceof LogResult.NotWritten notWritten) {
            return new Gated.Faulted<>(new GateFault(GateFault.Kind.DECISION_LOG, Optional.of(record.decisionId()),
                    "decision log: " + notWritten.detail()));
        }
        return new Gated.RateLimited<>(record.decisionId(), retryAfterMs);
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
