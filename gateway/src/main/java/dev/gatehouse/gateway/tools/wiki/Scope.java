package dev.gatehouse.gateway.tools.wiki;

import dev.gatehouse.facade.wiki.WikiScope;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolOutcome;
import dev.gatehouse.gateway.tools.ToolOutcomes;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * The wiki identity and target of a call, from the decision's obligations (docs/domain.md §7): the agent's subtree
 * ({@code wikiRoot}, chosen by the policy) and the resolved full path of one path field ({@code wikiPaths}). The raw
 * path argument is never read, and the trusted context gives only the agent id. A decision without either fails
 * closed (the gate already refuses such an allow; this is its second line).
 */
final class Scope {

    private Scope() {
    }

    static ToolOutcome with(ToolCall call, String field, BiFunction<WikiScope, String, ToolOutcome> action) {
        Optional<String> root = call.obligations().wikiRoot();
        Optional<String> path = call.obligations().wikiPath(field);
        if (root.isEmpty() || path.isEmpty()) {
            return ToolOutcomes.refused("obligation_missing", "the decision carried no wiki subtree or resolved path");
        }
        return action.apply(new WikiScope(call.context().logicalAgentId(), root.get()), path.get());
    }
}
