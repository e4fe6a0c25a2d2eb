package dev.gatehouse.gateway.gate;

import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.gateway.audit.DecisionRecord;
import dev.gatehouse.gateway.context.ResolvedCaller;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.ServedPolicy;
import dev.gatehouse.gateway.policy.api.VisibleTools;
import java.util.Optional;

/**
 * tools/list at the entry point {@code visible_tools}: one evaluation for the caller, whose enforce step lists
 * exactly the tools it names, as the deciding revision serves them.
 *
 * @param input  the listing input: the caller's facts only
 * @param caller the PIP's answer for the caller
 * @param tables the tool table of each revision
 */
record ToolListRequest(DecisionInput input, ResolvedCaller caller, ToolTables tables)
        implements DecisionRequest<VisibleTools, Listing.Listed> {

    /** The {@link GateStep#ARGUMENTS} step of a listing: nothing but the caller's facts. */
    static ToolListRequest of(ResolvedCaller caller, ToolTables tables) {
        return new ToolListRequest(DecisionInput.forListing(caller.facts()), caller, tables);
    }

    @Override
    public DecisionRecord.Method method() {
        return DecisionRecord.Method.TOOLS_LIST;
    }

    @Override
    public PolicyOutcome<VisibleTools> evaluate(ServedPolicy policy) {
        return policy.visibleTools(input);
    }

    @Override
    public DecisionRecord record(PolicyOutcome<VisibleTools> outcome) {
        return DecisionRecord.forListing(input, caller.context().provider(), outcome);
    }

    @Override
    public Listing.Listed enforce(ServedPolicy policy, VisibleTools visible) {
        ToolTable table = tables.of(policy.contents());
        return new Listing.Listed(visible.names().stream().map(table::find).flatMap(Optional::stream).toList(),
                policy.revision(), table);
    }
}
