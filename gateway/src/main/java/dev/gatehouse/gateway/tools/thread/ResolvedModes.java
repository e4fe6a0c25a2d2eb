package dev.gatehouse.gateway.tools.thread;

import dev.gatehouse.facade.host.ThreadModes;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolOutcome;
import dev.gatehouse.gateway.tools.ToolOutcomes;
import java.util.Optional;
import java.util.function.Function;

/**
 * The modes a mode-requesting handler must use: the decision's {@code modes} obligations for the schema's
 * {@code runtimeMode} and {@code interactionMode} fields, never the raw arguments. Without both it fails closed.
 */
final class ResolvedModes {

    private ResolvedModes() {
    }

    static ToolOutcome with(ToolCall call, Function<ThreadModes, ToolOutcome> action) {
        Optional<String> runtime = call.obligations().mode("runtimeMode");
        Optional<String> interaction = call.obligations().mode("interactionMode");
        if (runtime.isEmpty() || interaction.isEmpty()) {
            return ToolOutcomes.refused("obligation_missing", "the decision carried no resolved modes");
        }
        return action.apply(new ThreadModes(runtime.get(), interaction.get()));
    }
}
