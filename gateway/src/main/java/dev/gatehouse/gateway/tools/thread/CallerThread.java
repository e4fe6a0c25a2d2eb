package dev.gatehouse.gateway.tools.thread;

import dev.gatehouse.gateway.tools.ToolOutcomes;
import dev.gatehouse.gateway.tools.ToolOutcome;

/** The answer for a caller-bound tool reached without a calling thread, which the policy should have denied. */
final class CallerThread {

    private CallerThread() {
    }

    static ToolOutcome missing() {
        return ToolOutcomes.refused("thread_required", "this tool acts on the calling thread, and there is none");
    }
}
