package dev.gatehouse.gateway.gate;

import dev.gatehouse.facts.AccessRow;
import dev.gatehouse.facts.ArgumentLimits;
import dev.gatehouse.facts.ArgumentFacts;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.facts.ThreadShell;
import dev.gatehouse.gateway.audit.DecisionLog;
import dev.gatehouse.gateway.audit.DecisionRecord;
import dev.gatehouse.gateway.audit.LogResult;
import dev.gatehouse.gateway.context.AuthenticatedCaller;
import dev.gatehouse.gateway.context.ResolvedCaller;
import dev.gatehouse.gateway.context.TrustedContext;
import dev.gatehouse.gateway.context.TrustedContextResolver;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.Obligations;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.ServedPolicy;
import dev.gatehouse.gateway.policy.api.VisibleTools;
import dev.gatehouse.gateway.quota.Admission;
import dev.gatehouse.gateway.quota.FairShare;
import dev.gatehouse.gateway.quota.QuotaStep;
import dev.gatehouse.gateway.store.StoreUnavailableException;
import dev.gatehouse.gateway.telemetry.DecisionMetrics.Outcome;
import dev.gatehouse.gateway.telemetry.DecisionMetrics;
import dev.gatehouse.gateway.telemetry.GateSteps;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolOutcome;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PEP: the only path from an MCP request to a tool handler, the same for both protocol eras (docs/design.md
 * "How one call flows"; style card 5). It gathers facts, asks the PDP and enforces the answer; it never decides
 * authorization itself. Every tools/call decision (allow, deny, fault) is written to the decision log before the
 * handler could run, and a failed write denies.
 *
 * <p>Imports no HTTP, JSON or MCP SDK type (style card 4): the transport hands it an {@link AuthenticatedCaller},
 * a tool name and the arguments as plain Java values, and turns its {@link GateResult} into the era's wire format.
 *
 * <p>Each step is timed and traced ({@link GateSteps}); each decision is counted by tool, outcome and reason code,
 * and the PDP's answer time recorded ({@link DecisionMetrics}).
 */
@Singleton
public class Gate {

    private static final Logger LOG = LoggerFactory.getLogger(Gate.class);
    private static final String CALL = DecisionRecord.Method.TOOLS_CALL.wire();
    private static final String LIST = DecisionRecord.Method.TOOLS_LIST.wire();
    /** The {@code tool} tag of a name no tool is registered under (callers choose names; series must not grow). */
    private static final String UNKNOWN_TOOL = "unknown";
    private static final String NO_TOOL = "-";

    private final ToolTables tables;
    private final TrustedContextResolver pip;
    private final PolicyDecisionPoint pdp;
    private final DecisionLog decisionLog;
    private final GateSteps steps;
    private final DecisionMetrics metrics;
    private final ArgumentLimits limits;
    private final QuotaStep quotas;
    private final FairShare fairShare;

    public Gate(ToolTables tables, TrustedContextResolver pip, PolicyDecisionPoint pdp, DecisionLog decisionLog,
            GateSteps steps, DecisionMetrics metrics, ArgumentLimits limits, QuotaStep quotas, FairShare fairShare) {
        this.tables = tables;
        this.pip = pip;
        this.pdp = pdp;
        this.decisionLog = decisionLog;
        this.steps = steps;
        this.metrics = metrics;
        this.limits = limits;
        this.quotas = quotas;
        this.fairShare = fairShare;
    }

    /**
     * tools/list: one {@code visible_tools} evaluation for this caller on the serving revision, logged like a call;
     * the list is exactly those tools, as that revision serves them. A store that does not answer, no serving
     * revision, a PDP fault or a failed log write decides nothing: the answer is {@link Listing.Unavailable}, never
     * an empty list a client could cache. A listing takes a place of the caller's fair share like a call
     * ({@link FairShare}); without one it is {@link Listing.RateLimited}, neither decided nor logged. It is never
     * charged to a quota.
     *
     * @return the visible tools sorted by name, or unavailable
     */
    public Listing list(AuthenticatedCaller caller) {
        ResolvedCaller resolved;
        try {
            resolved = steps.run("context", () -> pip.resolve(caller));
        } catch (StoreUnavailableException e) {
            LOG.warn("tools/list not decided: {}", e.getMessage());
            metrics.decided(LIST, NO_TOOL, Outcome.UNAVAILABLE, List.of());
            return new Listing.Unavailable("store unavailable");
        }
        try (FairShare.Place place = fairShare.enter(resolved.facts())) {
            if (place.refusal().isPresent()) {
                metrics.decided(LIST, NO_TOOL, Outcome.RATE_LIMITED, List.of(GateReasons.rateLimited()));
                return new Listing.RateLimited(place.refusal().get().retryAfterMs());
            }
            return list(resolved);
        }
    }

    private Listing list(ResolvedCaller resolved) {
        Optional<ServedPolicy> served = pdp.serving();
        DecisionInput input = DecisionInput.forListing(resolved.facts());
        PolicyOutcome<VisibleTools> outcome = decide(LIST, () -> served.map(policy -> policy.visibleTools(input))
                .orElseGet(pdp::noRevision));
        if (!(steps.run("decision-log", () -> decisionLog.record(DecisionRecord.forListing(input,
                resolved.context().provider(), outcome))) instanceof LogResult.Written)) {
            metrics.decided(LIST, NO_TOOL, Outcome.UNAVAILABLE, List.of(GateReasons.policyUnavailable()));
            return new Listing.Unavailable("decision log write failed");
        }
        if (outcome instanceof PolicyOutcome.Decided<VisibleTools> decided && decided.value() != null) {
            metrics.decided(LIST, NO_TOOL, Outcome.ALLOW, List.of());
            ToolTable table = tables.of(served.get().contents());
            return new Listing.Listed(decided.value().names().stream().map(table::find).flatMap(Optional::stream)
                    .toList(), served.get().revision(), table);
        }
        LOG.warn("tools/list for {} not decided: {}", resolved.context().logicalAgentId(), outcome);
        metrics.decided(LIST, NO_TOOL, Outcome.UNAVAILABLE, List.of(GateReasons.policyUnavailable()));
        return new Listing.Unavailable("policy decision point did not decide");
    }

    /**
     * tools/call, as one list of named steps: trusted context → fair share → target shells → closed-schema facts →
     * decision → quota → decision log → enforce → handler. The caller's place of its fair share ({@link FairShare}) is
     * held from before the target shells until the handler returned; a call refused there or by its quota ({@link
     * QuotaStep}) is logged and answered {@link GateResult.RateLimited}, and never reaches its handler. The decision
     * input carries the arguments as {@link DecisionArguments} sends them, and arguments beyond their schema's {@link
     * ArgumentEnvelope} (or {@link ArgumentLimits}) are not validated or sent: only the fields the policy reads, with
     * one error.
     *
     * @param caller    the authenticated caller of this request
     * @param tool      the name as received (an unknown name is decided by the policy: {@code unknown_tool})
     * @param arguments the arguments as received; a missing member is passed as an empty {@code Map}
     * @return the denial, the handler's outcome, or the handler's fault; never throws for a denial
     * @throws StoreUnavailableException when the caller's settings could not be read: nothing was decided or logged,
     *                                   and the transport answers {@code unavailable}
     */
    public GateResult call(AuthenticatedCaller caller, String tool, Object arguments) {
        Optional<ServedPolicy> served = pdp.serving(); // taken once: every step of this call uses this revision
        Optional<ServedTool> registered = served.flatMap(policy -> tables.of(policy.contents()).find(tool));
        String toolTag = registered.map(ServedTool::name).orElse(UNKNOWN_TOOL);
        ResolvedCaller resolved;
        try {
            resolved = steps.run("context", () -> pip.resolve(caller));
        } catch (StoreUnavailableException e) {
            metrics.decided(CALL, toolTag, Outcome.UNAVAILABLE, List.of());
            throw e;
        }
        GateResult result;
        try (FairShare.Place place = fairShare.enter(resolved.facts())) {
            result = place.refusal().isPresent() ? overShare(resolved, tool, place.refusal().get())
                    : call(served, registered, resolved, tool, arguments);
        }
        metrics.decided(CALL, toolTag, outcome(result), reasons(result));
        return result;
    }

    private GateResult call(Optional<ServedPolicy> served, Optional<ServedTool> registered, ResolvedCaller resolved,
            String tool, Object arguments) {
        Map<String, ThreadShell> targets = steps.run("target-shells",
                () -> pip.threadShells(targetThreadIds(registered, arguments)));
        ArgumentFacts facts = steps.run("argument-check", () -> ArgumentFacts.of(registered.map(ServedTool::schema),
                registered.map(ServedTool::row), arguments, limits, resolved.facts().subtreeIds()));
        DecisionInput input = new DecisionInput(tool, facts, resolved.facts(), targets);
        PolicyOutcome<Decision> outcome = decide(CALL, () -> served.map(policy -> policy.decide(input))
                .orElseGet(pdp::noRevision));
        Admission admission = steps.run("quota", () -> quotas.admit(outcome));
        DecisionRecord record = DecisionRecord.forCall(input, resolved.context().provider(), outcome, admission);
        String decisionId = record.decisionId().toString();
        if (!(steps.run("decision-log", () -> decisionLog.record(record)) instanceof LogResult.Written)
                || outcome instanceof PolicyOutcome.Failed<Decision>) {
            return new GateResult.Unavailable(decisionId, GateReasons.policyUnavailable());
        }
        if (admission instanceof Admission.OverBudget over) {
            return new GateResult.RateLimited(decisionId, GateReasons.rateLimited(), over.retryAfterMs());
        }
        Optional<Decision> allowed = enforceable(outcome, registered, arguments);
        if (allowed.isEmpty()) {
            List<Decision.Reason> reasons = reasons(outcome);
            return new GateResult.Denied(decisionId, reasons, reasons.stream().allMatch(reason ->
                    GateReasons.POLICY_UNAVAILABLE.equals(reason.code())
                            || served.get().contents().retryable(reason.code())));
        }
        return steps.run("handler", () -> runHandler(record.decisionId(), registered.get(), arguments,
                allowed.get(), resolved.context()));
    }

    /** A call refused before its decision because its caller had every place of its fair share: logged, not decided. */
    private GateResult overShare(ResolvedCaller resolved, String tool, Admission.OverShare refusal) {
        DecisionRecord record = DecisionRecord.forOverShare(tool, resolved.facts(), resolved.context().provider(),
                refusal);
        String decisionId = record.decisionId().toString();
        if (!(steps.run("decision-log", () -> decisionLog.record(record)) instanceof LogResult.Written)) {
            return new GateResult.Unavailable(decisionId, GateReasons.policyUnavailable());
        }
        return new GateResult.RateLimited(decisionId, GateReasons.rateLimited(), refusal.retryAfterMs());
    }

    /** Asks the PDP in the {@code decision} step, recording its answer time. */
    private <T> T decide(String method, Supplier<T> ask) {
        long start = System.nanoTime();
        try {
            return steps.run("decision", ask);
        } finally {
            metrics.latency(method, System.nanoTime() - start);
        }
    }

    private static Outcome outcome(GateResult result) {
        if (result instanceof GateResult.Unavailable) {
            return Outcome.UNAVAILABLE;
        }
        if (result instanceof GateResult.RateLimited) {
            return Outcome.RATE_LIMITED;
        }
        return result instanceof GateResult.Denied ? Outcome.DENY : Outcome.ALLOW;
    }

    private static List<Decision.Reason> reasons(GateResult result) {
        if (result instanceof GateResult.Unavailable unavailable) {
            return List.of(unavailable.reason());
        }
        if (result instanceof GateResult.RateLimited limited) {
            return List.of(limited.reason());
        }
        return result instanceof GateResult.Denied denied ? denied.reasons() : List.of();
    }

    /** Thread ids named by the row's threadFields, from the arguments; non-strings are left to the schema check. */
    private static List<String> targetThreadIds(Optional<ServedTool> tool, Object arguments) {
        if (tool.isEmpty() || !(arguments instanceof Map<?, ?> args)) {
            return List.of();
        }
        return tool.get().row().threadFields().stream()
                .map(args::get)
                .filter(String.class::isInstance)
                .map(String.class::cast)
                .toList();
    }

    /**
     * The decision, when it allows and the PEP can carry it out: a decided, literal allow for a served tool with an
     * object of arguments and every obligation its row implies (a resolved mode for each mode field, a resolved wiki
     * path for each path field and the wiki root when it has any) and the quota every allowed call is charged to
     * (docs/domain.md §10). Anything else is a denial. The check knows fields, not tools.
     */
    private static Optional<Decision> enforceable(PolicyOutcome<Decision> outcome, Optional<ServedTool> tool,
            Object arguments) {
        if (!(outcome instanceof PolicyOutcome.Decided<Decision> decided) || decided.value() == null
                || !decided.value().allow()) {
            return Optional.empty();
        }
        Decision decision = decided.value();
        if (tool.isEmpty() || !(arguments instanceof Map<?, ?>)
                || !carriesObligations(tool.get().row(), decision.obligations())) {
            LOG.error("policy allowed {} without the obligations its row needs; denying", tool.map(ServedTool::name));
            return Optional.empty();
        }
        return Optional.of(decision);
    }

    private static boolean carriesObligations(AccessRow row, Obligations obligations) {
        return obligations.modes().keySet().containsAll(row.modeFields().values())
                && obligations.wikiPaths().keySet().containsAll(row.pathFields())
                && (row.pathFields().isEmpty() || obligations.wikiRoot().isPresent())
                && obligations.quota().isPresent();
    }

    /** The reasons to show for a denial: the policy's, or {@code policy_unavailable} when it had none to give. */
    private static List<Decision.Reason> reasons(PolicyOutcome<Decision> outcome) {
        if (outcome instanceof PolicyOutcome.Decided<Decision> decided && decided.value() != null
                && !decided.value().allow() && !decided.value().reasons().isEmpty()) {
            return decided.value().reasons();
        }
        return List.of(GateReasons.policyUnavailable());
    }

    @SuppressWarnings("unchecked")
    private static GateResult runHandler(UUID decision, ServedTool tool, Object arguments, Decision allowed,
            TrustedContext context) {
        String decisionId = decision.toString();
        try {
            ToolOutcome result = tool.handler().handle(
                    new ToolCall((Map<String, Object>) arguments, allowed.obligations(), context, decision));
            if (result == null) {
                LOG.error("handler of {} returned null (decision {})", tool.name(), decisionId);
                return new GateResult.HandlerFault(decisionId);
            }
            return new GateResult.Completed(decisionId, result);
        } catch (RuntimeException e) {
            LOG.error("handler of {} threw (decision {})", tool.name(), decisionId, e);
            return new GateResult.HandlerFault(decisionId);
        }
    }
}
