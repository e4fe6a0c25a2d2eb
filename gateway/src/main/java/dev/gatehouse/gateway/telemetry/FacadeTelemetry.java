package dev.gatehouse.gateway.telemetry;

import dev.gatehouse.facade.http.ExchangeObserver;
import dev.gatehouse.facade.http.Reply;
import dev.gatehouse.facade.http.ServiceRequest;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import jakarta.inject.Singleton;
import java.util.concurrent.TimeUnit;

/**
 * Observes every facade exchange: the timer {@value #TIMER} tagged {@code service} ({@code project|wiki|host}) and
 * {@code outcome} ({@code 2xx|3xx|4xx|5xx|timeout|refused|broken}), and a client span {@code facade <service>} whose
 * trace context the request carries as {@code traceparent}, so the service's own spans join the caller's trace.
 */
@Singleton
public class FacadeTelemetry implements ExchangeObserver {

    /** Timer name: one facade exchange, from send to reply. */
    public static final String TIMER = "gatehouse.facade.call";

    private final MeterTable<Timer> timers;
    private final Tracing tracing;

    public FacadeTelemetry(MeterRegistry meters, Tracing tracing) {
        this.timers = new MeterTable<>(tags -> Timer.builder(TIMER)
                .description("one facade exchange with an outside service")
                .tag("service", tags[0]).tag("outcome", tags[1]).register(meters));
        this.tracing = tracing;
    }

    @Override
    public Exchange start(String service, ServiceRequest request) {
        Span span = tracing.startClient("facade " + service);
        span.setAttribute("http.request.method", request.method());
        span.setAttribute("url.path", request.path());
        tracing.inject(span, request::header);
        long start = System.nanoTime();
        return reply -> {
            String outcome = outcome(reply);
            timers.get(service, outcome).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            if (reply instanceof Reply.Answered answered) {
                span.setAttribute("http.response.status_code", answered.status());
            }
            if (!outcome.equals("2xx")) {
                span.setStatus(StatusCode.ERROR, outcome);
            }
            span.end();
        };
    }

    /** The {@code outcome} tag of a reply. */
    static String outcome(Reply reply) {
        if (reply instanceof Reply.Answered answered) {
            return (answered.status() / 100) + "xx";
        }
        if (reply instanceof Reply.TimedOut) {
            return "timeout";
        }
        return reply instanceof Reply.Refused ? "refused" : "broken";
    }
}
