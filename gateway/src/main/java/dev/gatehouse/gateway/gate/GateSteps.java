package dev.gatehouse.gateway.gate;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The timed steps of one {@code tools/call} in the PEP, after the transport pipeline: each step's wall time per call
 * goes to the timer {@value #TIMER}, tagged {@code step} with the step's wire name, in nanoseconds. Read together
 * with the transport steps ({@code gatehouse.transport.step}) they account for a gated call up to its reply.
 */
final class GateSteps {

    /** Name of the per-step timer. */
    static final String TIMER = "gatehouse.gate.step";

    /** The steps, in the order {@link Gate#call} runs them. */
    enum Step {
        /** The PIP for the caller: the agent's settings (and registration), the caller thread's shell at the host. */
        CONTEXT("context"),
        /** The shells of the threads the arguments name. */
        TARGET_SHELLS("target-shells"),
        /** The closed-schema check of the arguments. */
        ARGUMENT_CHECK("argument-check"),
        /** The PDP's decision, input serialisation and parsing included. */
        DECISION("decision"),
        /** The decision-log write the call waits for. */
        DECISION_LOG("decision-log"),
        /** The tool handler: the facade call to the service and the rebuilt output. */
        HANDLER("handler");

        final String wire;

        Step(String wire) {
            this.wire = wire;
        }
    }

    private final Map<Step, Timer> timers = new EnumMap<>(Step.class);

    GateSteps(MeterRegistry meters) {
        for (Step step : Step.values()) {
            timers.put(step, Timer.builder(TIMER).description("time spent in one step of the PEP for a tools/call")
                    .tag("step", step.wire).register(meters));
        }
    }

    /** Runs {@code work} as {@code step} and records its wall time, also when it throws. */
    <T> T time(Step step, Supplier<T> work) {
        long start = System.nanoTime();
        try {
            return work.get();
        } finally {
            timers.get(step).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        }
    }
}
