package dev.gatehouse.gateway.tools;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.error.ServiceError;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/** Turns a facade result into a tool outcome: the projected value, or the service failure as it came. */
public final class ToolOutcomes {

    private ToolOutcomes() {
    }

    /**
     * @param projection builds the agent-facing map from the facade's value; it is not called on failure
     * @param hints      error kind → the tool that shows the current state, from the calling toolkit
     */
    public static <T> ToolOutcome of(FacadeResult<T> result, Function<T, Map<String, Object>> projection,
            Map<String, String> hints) {
        if (result instanceof FacadeResult.Ok<T> ok) {
            return new ToolOutcome.Succeeded(projection.apply(ok.value()));
        }
        ServiceError error = ((FacadeResult.Failed<T>) result).error();
        return new ToolOutcome.Failed(error, Optional.ofNullable(hints.get(error.kind())));
    }

    /** A failure found before any service call (a missing fact the call cannot be made without). */
    public static ToolOutcome refused(String code, String message) {
        return new ToolOutcome.Failed(new ServiceError.Rejected(message, code), Optional.empty());
    }
}
