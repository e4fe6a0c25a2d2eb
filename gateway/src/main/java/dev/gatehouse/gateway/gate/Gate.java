package dev.gatehouse.gateway.gate;

import dev.gatehouse.facts.ArgumentLimits;
import dev.gatehouse.gateway.audit.DecisionRecord;
import dev.gatehouse.gateway.context.AuthenticatedCaller;
import dev.gatehouse.gateway.context.ResolvedCaller;
import dev.gatehouse.gateway.context.TrustedContextResolver;
import dev.gatehouse.gateway.gate.GatePipeline.Gated;
import dev.gatehouse.gateway.gate.GatePipeline.Gathered;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.policy.api.ServedPolicy;
import dev.gatehouse.gateway.quota.FairShare;
import dev.gatehouse.gateway.telemetry.DecisionMetrics;
import dev.gatehouse.gateway.telemetry.DecisionMetrics.Outcome;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolOutcome;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PEP of MCP calls: the only path from an MCP request to a tool handler, the same for both protocol eras
 * (docs/design.md, "The gate's steps"; style card 5). Its two entry points, {@link #call} and {@link #list}, each
 * take the serving revision once and run the {@link GatePipeline}'s steps with their own {@link DecisionRequest}; it
 * never decides authorization itself. Both hold a place of the caller's fair share of the gateway ({@link FairShare},
 * docs/domain.md §10) from the end of the facts step (the share is keyed by the caller's trusted facts) until the
 * handler has returned; a request refused a place is answered {@code rate_limited} and costs no policy evaluation.
 *
 * <p>Imports no HTTP, JSON or MCP SDK type (style card 4): the transport hands it an {@link AuthenticatedCaller},
 * a tool name and the arguments as plain Java values, and turns its {@link GateResult} or {@link Listing} into the
 * era's wire format. Each decision is counted by method, tool, outcome and reason code ({@link DecisionMetrics}).
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
    private final GatePipeline pipeline;
    private final DecisionMetrics metrics;
    private final ArgumentLimits limits;
    private final FairShare fairShare;

    public Gate(ToolTables tables, TrustedContextResolver pip, PolicyDecisionPoint pdp, GatePipeline pipeline,
            DecisionMetrics metrics, ArgumentLimits limits, FairShare fairShare) {
        this.tables = tables;
        this.pip = pip;
        this.pdp = pdp;
        this.pipeline = pipeline;
        this.metrics = metrics;
        this.limits = limits;
        this.fairShare = fairShare;
    }

    /**
     * tools/list: one {@code visible_tools} evaluation for this caller on the serving revision, logged like a call;
     * the list is exactly those tools, as that revision serves them. A listing takes a place of the caller's fair share
     * like a call; without one it is {@link Listing.RateLimited}, neither decided nor logged. It is never charged to a
     * quota.
     *
     * @return the visible tools sorted by name, the fault that kept them from being decided (never an empty list), or
     *         the fair share's refusal
     */
    public Listing list(AuthenticatedCaller caller) {
        Optional<ServedPolicy> served = pdp.serving(); // taken once: every step of this listing uses this revision
        Gathered<ResolvedCaller> facts = pipeline.facts(() -> pip.resolve(caller));
        if (facts instanceof Gathered.Unavailable<ResolvedCaller> unavailable) {
            return unavailable(unavailable.fault());
        }
        ResolvedCaller resolved = ((Gathered.Facts<ResolvedCaller>) facts).value();
        try (FairShare.Place place = fairShare.enter(resolved.facts())) {
            if (place.refusal().isPresent()) {
                metrics.decided(LIST, NO_TOOL, Outcome.RATE_LIMITED, List.of(GateReasons.rateLimited()));
                return new Listing.RateLimited(place.refusal().get().retryAfterMs());
            }
            return list(pipeline.decide(served, () -> ToolListRequest.of(resolved, tables)));
        }
    }

    private Listing list(Gated<Listing.Listed> gated) {
        if (gated instanceof Gated.Faulted<Listing.Listed> faulted) {
            return unavailable(faulted.fault());
        }
        metrics.decided(LIST, NO_TOOL, Outcome.ALLOW, List.of());
        return ((Gated.Passed<Listing.Listed>) gated).verdict();
    }

    private Listing unavailable(GateFault fault) {
        LOG.warn("tools/list not decided: {}", fault.detail());
        metrics.decided(LIST, NO_TOOL, Outcome.UNAVAILABLE, reasons(fault));
        return new Listing.Unavailable(fault);
    }

    /**
     * tools/call through every step: facts (the caller and the threads the arguments name) → fair share → arguments →
     * decision → quota → decision log → enforce → handler. The caller's place of its fair share is held until the
     * handler returned; a call refused a place is logged ({@link DecisionRecord#forOverShare}) and answered
     * {@link GateResult.RateLimited} without a decision, and one over its quota is decided, logged and answered the
     * same; neither reaches its handler. The decision input carries the arguments as
     * {@link dev.gatehouse.facts.ArgumentFacts} derives them, within {@link ArgumentLimits}.
     *
     * @param caller    the authenticated caller of this request
     * @param tool      the name as received (an unknown name is decided by the policy: {@code unknown_tool}; one
     *                  longer than every served name under its digest, {@link ToolTable#decidedName})
     * @param arguments the arguments as received; a missing member is passed as an empty {@code Map}
     * @return the denial, the handler's outcome or fault, or the fault that kept the call from being decided; never
     *         throws for any of them
     */
    public GateResult call(AuthenticatedCaller caller, String tool, Object arguments) {
        Optional<ServedPolicy> served = pdp.serving(); // taken once: every step of this call uses this revision
        Optional<ToolTable> table = served.map(policy -> tables.of(policy.contents()));
        Optional<ServedTool> registered = table.flatMap(t -> t.find(tool));
        String decided = table.map(t -> t.decidedName(tool)).orElse(tool);
        GateResult result = call(served, registered, caller, decided, arguments);
        metrics.decided(CALL, registered.map(ServedTool::name).orElse(UNKNOWN_TOOL), outcome(result),
                reasons(result));
        return result;
    }

    private GateResult call(Optional<ServedPolicy> served, Optional<ServedTool> registered, AuthenticatedCaller caller,
            String tool, Object arguments) {
        Gathered<ResolvedCaller> facts = pipeline.facts(
                () -> pip.resolve(caller, ToolCallRequest.targetThreadIds(registered, arguments)));
        if (facts instanceof Gathered.Unavailable<ResolvedCaller> unavailable) {
            return new GateResult.Unavailable(unavailable.fault());
        }
        ResolvedCaller resolved = ((Gathered.Facts<ResolvedCaller>) facts).value();
        try (FairShare.Place place = fairShare.enter(resolved.facts())) {
            Gated<ToolCallRequest.Verdict> gated = place.refusal().isPresent()
                    ? pipeline.refused(DecisionRecord.forOverShare(tool, resolved.facts(),
                            resolved.context().provider(), place.refusal().get()), place.refusal().get().retryAfterMs())
                    : pipeline.decide(served, () -> ToolCallRequest.of(tool, registered, arguments, resolved, limits));
            return call(gated);
        }
    }

    private GateResult call(Gated<ToolCallRequest.Verdict> gated) {
        if (gated instanceof Gated.Faulted<ToolCallRequest.Verdict> faulted) {
            return new GateResult.Unavailable(faulted.fault());
        }
        if (gated instanceof Gated.RateLimited<ToolCallRequest.Verdict> limited) {
            return new GateResult.RateLimited(limited.decisionId().toString(), GateReasons.rateLimited(),
                    limited.retryAfterMs());
        }
        Gated.Passed<ToolCallRequest.Verdict> passed = (Gated.Passed<ToolCallRequest.Verdict>) gated;
        if (passed.verdict() instanceof ToolCallRequest.Denied denied) {
            return new GateResult.Denied(passed.decisionId().toString(), denied.reasons(), denied.retryable());
        }
        ToolCallRequest.Allowed allowed = (ToolCallRequest.Allowed) passed.verdict();
        return pipeline.handler(() -> runHandler(passed.decisionId(), allowed));
    }

    private static GateResult runHandler(UUID decision, ToolCallRequest.Allowed allowed) {
        String decisionId = decision.toString();
        ServedTool tool = allowed.tool();
        try {
            ToolOutcome result = tool.handler().handle(
                    new ToolCall(allowed.arguments(), allowed.obligations(), allowed.context(), decision));
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
            return reasons(unavailable.fault());
        }
        if (result instanceof GateResult.RateLimited limited) {
            return List.of(limited.reason());
        }
        return result instanceof GateResult.Denied denied ? denied.reasons() : List.of();
    }

    /**
     * A fault's reason in the metrics: none when nothing was decided or the fault is the quota step's (not the
     * policy's), else {@code policy_unavailable}.
     */
    private static List<Decision.Reason> reasons(GateFault fault) {
        return fault.kind() == GateFault.Kind.FACTS || fault.kind() == GateFault.Kind.QUOTA ? List.of()
                : List.of(GateReasons.policyUnavailable());
    }
}
