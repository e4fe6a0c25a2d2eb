package dev.gatehouse.gateway.tools.wiki;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.gateway.tools.ToolOutcome;
import dev.gatehouse.gateway.tools.ToolOutcomes;
import java.util.Map;
import java.util.function.Function;

/**
 * The wiki toolkit's recovery hints: which of its tools shows the current state after a failure of a kind.
 * A stale or unknown write is resolved by reading the page again.
 */
final class Recovery {

    private static final Map<String, String> HINTS = Map.of("conflict", "wiki_read", "uncertain", "wiki_read");

    private Recovery() {
    }

    /** {@link ToolOutcomes#of} with this toolkit's hints. */
    static <T> ToolOutcome of(FacadeResult<T> result, Function<T, Map<String, Object>> projection) {
        return ToolOutcomes.of(result, projection, HINTS);
    }
}
