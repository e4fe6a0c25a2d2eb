package dev.gatehouse.gateway.mcp;

import dev.gatehouse.gateway.mcp.guard.Rejection;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import dev.gatehouse.gateway.telemetry.Tracing;
import io.opentelemetry.api.trace.Span;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The transport side of every {@code /mcp} request as one ordered list of named steps, entered once (style card 5).
 * Each step's duration is recorded per call in the timer {@value #TIMER} tagged {@code step} and {@code outcome}
 * ({@code passed|rejected}), in nanoseconds of wall time, and traced as a span {@code transport.<step>} under the
 * request's span.
 */
final class TransportPipeline {

    /** Name of the per-step timer. */
    static final String TIMER = "gatehouse.transport.step";

    private final List<TransportStep> steps;
    private final List<Timer> passed;
    private final List<Timer> rejected;
    private final Tracing tracing;
    /** Each step's span name, {@code transport.<step>}, made once. */
    private final List<String> spans;

    TransportPipeline(List<TransportStep> steps, MeterRegistry meters, Tracing tracing) {
        this.steps = List.copyOf(steps);
        this.tracing = tracing;
        this.spans = steps.stream().map(step -> "transport." + step.name()).toList();
        this.passed = steps.stream().map(step -> timer(meters, step, "passed")).toList();
        this.rejected = steps.stream().map(step -> timer(meters, step, "rejected")).toList();
    }

    /** The step names, in order. */
    List<String> names() {
        return steps.stream().map(TransportStep::name).toList();
    }

    /**
     * Runs every step in order until one rejects.
     *
     * @return the first rejection, or empty when every step passed
     */
    Optional<Rejection> run(Exchange exchange) throws IOException {
        for (int i = 0; i < steps.size(); i++) {
            Span span = tracing.startInternal(spans.get(i));
            long start = System.nanoTime();
            Optional<Rejection> rejection;
            try {
                rejection = steps.get(i).apply(exchange);
            } finally {
                span.end();
            }
            (rejection.isPresent() ? rejected : passed).get(i).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            rejection.ifPresent(r -> span.setAttribute("gatehouse.rejected", r.status()));
            if (rejection.isPresent()) {
                return rejection;
            }
        }
        return Optional.empty();
    }

    private static Timer timer(MeterRegistry meters, TransportStep step, String outcome) {
        return Timer.builder(TIMER).description("time spent in one transport step of an /mcp request")
                .tag("step", step.name()).tag("outcome", outcome).register(meters);
    }
}
