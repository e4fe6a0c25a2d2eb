package dev.gatehouse.gateway.admin;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code GET /admin/pipeline-timings}, behind {@link AdminCredentialFilter}: the per-step timers of the transport
 * pipeline ({@code gatehouse.transport.step}, tags {@code step} and {@code outcome}) as read from the meter
 * registry, one entry per timer: {@code {step, outcome, count, totalMicros, meanMicros, maxMicros}}. Counts and
 * totals are cumulative since start; {@code max} is the registry's decaying maximum. Meant for the load harness in
 * bench/; the same timers are scraped at {@code GET /prometheus}. It reads meters, nothing else.
 */
@Controller("/admin/pipeline-timings")
public class PipelineTimingsController {

    /** The timer the transport pipeline records into (TransportPipeline.TIMER). */
    static final String TIMER = "gatehouse.transport.step";

    private final MeterRegistry meters;

    public PipelineTimingsController(MeterRegistry meters) {
        this.meters = meters;
    }

    @Get
    public List<Map<String, Object>> timings() {
        return meters.find(TIMER).timers().stream()
                .sorted(Comparator.comparing((Timer t) -> String.valueOf(t.getId().getTag("step")))
                        .thenComparing(t -> String.valueOf(t.getId().getTag("outcome"))))
                .map(PipelineTimingsController::entry).toList();
    }

    private static Map<String, Object> entry(Timer timer) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("step", timer.getId().getTag("step"));
        entry.put("outcome", timer.getId().getTag("outcome"));
        entry.put("count", timer.count());
        entry.put("totalMicros", timer.totalTime(TimeUnit.MICROSECONDS));
        entry.put("meanMicros", timer.mean(TimeUnit.MICROSECONDS));
        entry.put("maxMicros", timer.max(TimeUnit.MICROSECONDS));
        return entry;
    }
}
