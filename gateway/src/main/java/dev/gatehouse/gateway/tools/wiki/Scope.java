package dev.gatehouse.gateway.tools.wiki;

import dev.gatehouse.gateway.tools.ToolOutcomes;
import dev.gatehouse.facade.wiki.WikiScope;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolOutcome;
import java.util.function.BiFunction;

/**
 * The wiki identity and target of a call: the agent's subtree from the trusted context, and the resolved full
 * path from the decision's obligation (DOMAIN.md §7). The raw {@code path} argument is never read. A decision
 * without a resolved path fails closed.
 */
final class Scope {

    private Scope() {
    }

    static ToolOutcome with(ToolCall call, BiFunction<WikiScope, String, ToolOutcome> action) {
        return call.obligations().wikiPath()
                .map(path -> action.apply(new WikiScope(call.context().logicalAgentId(), call.context().wikiRoot()),
                        path))
                .orElseGet(() -> ToolOutcomes.refused("obligation_missing", "the decision carried no resolved wiki path"));
    }
}
