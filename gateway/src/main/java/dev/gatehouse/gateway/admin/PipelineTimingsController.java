package dev.gatehouse.gateway.admin;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code GET /admin/pipeline-timings}, behind {@link AdminCredentialFilter}: the per-step timers of one call as read
 * from the meter registry, one entry per timer: {@code {timer, step, outcome, count, totalMicros, meanMicros,
 * maxMicros}} and, for timers with a histogram, {@code buckets: [[upperBoundMicros, cumulativeCount], …]}.
 * {@code timer} is {@code transport} ({@code gatehouse.transport.step}: step, outcome {@code passed|rejected}),
 * {@code gate} ({@code gatehouse.gate.step}: step, outcome {@code all}), {@code store}
 * ({@code gatehouse.store.lookup}: step {@code lookup.<table>}, outcome {@code cache|store}) or {@code engine}
 * ({@code gatehouse.pdp.evaluation.cpu}: step the entry point, e.g. {@code decision}, outcome {@code cpu}; the
 * request thread's CPU time inside each evaluation of the embedded engine, not wall time). Counts, totals and
 * buckets are cumulative since start, so two reads give one series' calls and percentiles; {@code max} is the
 * registry's decaying maximum. Meant for the load harness in bench/; the same timers are scraped at
 * {@code GET /prometheus}. It reads meters, nothing else, and takes no query parameter (400 {@code invalid_fields}
 * naming one).
 */
@Controller("/admin/pipeline-timings")
public class PipelineTimingsController {

    /** The timers read, by entry kind: TransportPipeline.TIMER, GateSteps.TIMER, StoreCache.TIMER, EngineCpu.TIMER. */
    private static final Map<String, String> TIMERS = Map.of("transport", "gatehouse.transport.step",
            "gate", "gatehouse.gate.step", "store", "gatehouse.store.lookup", "engine", "gatehouse.pdp.evaluation.cpu");

    private final MeterRegistry meters;

    public PipelineTimingsController(MeterRegistry meters) {
        this.meters = meters;
    }

    @Get
    public HttpResponse<?> timings(HttpRequest<?> request) {
        return AdminResponses.answer(QueryParameters.strict(request, List.of(), new AdminResult.Done<Void>(null)),
                none -> HttpResponse.ok(timings()));
    }

    private List<Map<String, Object>> timings() {
        List<Map<String, Object>> entries = new ArrayList<>();
        for (String kind : List.of("transport", "gate", "store", "engine")) {
            meters.find(TIMERS.get(kind)).timers().stream()
                    .map(timer -> entry(kind, timer))
                    .sorted(Comparator.comparing((Map<String, Object> e) -> String.valueOf(e.get("step")))
                            .thenComparing(e -> String.valueOf(e.get("outcome"))))
                    .forEach(entries::add);
        }
        return entries;
    }

    private static Map<String, Object> entry(String kind, Timer timer) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("timer", kind);
        entry.put("step", switch (kind) {
            case "store" -> "lookup." + timer.getId().getTag("table");
            case "engine" -> timer.getId().getTag("entrypoint");
            default -> timer.getId().getTag("step");
        });
        entry.put("outcome", switch (kind) {
            case "store" -> timer.getId().getTag("source");
            case "gate" -> "all";
            case "engine" -> "cpu";
            default -> timer.getId().getTag("outcome");
        });
        entry.put("count", timer.count());
        entry.put("totalMicros", timer.totalTime(TimeUnit.MICROSECONDS));
        entry.put("meanMicros", timer.mean(TimeUnit.MICROSECONDS));
        entry.put("maxMicros", timer.max(TimeUnit.MICROSECONDS));
        CountAtBucket[] buckets = timer.takeSnapshot().histogramCounts();
        if (buckets.length > 0) {
            List<double[]> counts = new ArrayList<>();
            for (CountAtBucket bucket : buckets) {
                counts.add(new double[] {bucket.bucket(TimeUnit.MICROSECONDS), bucket.count()});
            }
            entry.put("buckets", counts);
        }
        return entry;
    }
}
