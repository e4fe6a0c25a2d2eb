package dev.gatehouse.gateway.tools.wiki;

import dev.gatehouse.gateway.tools.ToolOutcomes;
import dev.gatehouse.facade.wiki.WikiScope;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolOutcome;
import java.util.function.BiFunction;

/**
 * The wiki identity and target of a call: the agent's subtree from the trusted context, and the resolved full
 * path of one path field from the decision's {@code wikiPaths} obligation (docs/domain.md §7). The raw path argument
 * is never read. A decision without a resolved path for the field fails closed.
 */
final class Scope {

    private Scope() {
    }

    static ToolOutcome with(ToolCall call, String field, BiFunction<WikiScope, String, ToolOutcome> action) {
        return call.obligations().wikiPath(field)
                .map(path -> action.apply(new WikiScope(call.context().logicalAgentId(), call.context().wikiRoot()),
                        path))
                .orElseGet(() -> ToolOutcomes.refused("obligation_missing", "the decision carried no resolved wiki path"));
    }
}
