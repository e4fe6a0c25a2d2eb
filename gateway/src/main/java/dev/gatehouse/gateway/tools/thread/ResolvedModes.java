package dev.gatehouse.gateway.tools.thread;

import dev.gatehouse.gateway.tools.ToolOutcomes;
import dev.gatehouse.gateway.tools.ToolOutcome;

/** The answer for a mode row whose decision carried no resolved modes: fail closed, never guess them. */
final class ResolvedModes {

    private ResolvedModes() {
    }

    static ToolOutcome missing() {
        return ToolOutcomes.refused("obligation_missing", "the decision carried no resolved modes");
    }
}
