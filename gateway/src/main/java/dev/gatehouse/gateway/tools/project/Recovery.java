package dev.gatehouse.gateway.tools.project;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.gateway.tools.ToolOutcome;
import dev.gatehouse.gateway.tools.ToolOutcomes;
import java.util.Map;
import java.util.function.Function;

/**
 * The project toolkit's recovery hints: which of its tools shows the current state after a failure of a kind.
 * docs/domain.md §8: a stale revision is resolved by listing the work again, an unknown outcome by reading the operation.
 */
final class Recovery {

    private static final Map<String, String> HINTS = Map.of("conflict", "project_work_list", "uncertain", "project_operation_get");

    private Recovery() {
    }

    /** {@link ToolOutcomes#of} with this toolkit's hints. */
    static <T> ToolOutcome of(FacadeResult<T> result, Function<T, Map<String, Object>> projection) {
        return ToolOutcomes.of(result, projection, HINTS);
    }
}
