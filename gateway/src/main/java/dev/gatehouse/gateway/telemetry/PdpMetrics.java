package dev.gatehouse.gateway.telemetry;

import dev.gatehouse.gateway.auth.SessionStore;
import dev.gatehouse.gateway.policy.api.PdpStatus;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Context;

/**
 * Gauges read at every scrape:
 * <ul>
 * <li>{@value #HEALTHY}: 1 while the PDP has a bundle and passed its self-test ({@link PdpStatus#healthy()}), else 0;
 *     tagged {@code engine};</li>
 * <li>{@value #REVISION}: value 1, tagged {@code engine} and {@code revision} (the bundle revision in use now, as
 *     {@link PolicyDecisionPoint#status()} reports it); when the revision changes, the series of the old one goes
 *     away, and without a bundle there is none;</li>
 * <li>{@value #SESSIONS}: thread sessions that are current (known, not revoked, not expired) in the shared store;
 *     NaN while the store does not answer.</li>
 * </ul>
 * Registered at start-up (a context bean, not a {@code MeterBinder}: the PDP itself needs the registry).
 */
@Context
public class PdpMetrics {

    public static final String HEALTHY = "gatehouse.pdp.healthy";
    public static final String REVISION = "gatehouse.bundle.revision";
    public static final String SESSIONS = "gatehouse.sessions";

    private final PolicyDecisionPoint pdp;
    private final MeterRegistry registry;
    private Meter.Id revision;

    public PdpMetrics(PolicyDecisionPoint pdp, SessionStore sessions, MeterRegistry meters) {
        this.pdp = pdp;
        this.registry = meters;
        String engine = pdp.status().engine();
        Gauge.builder(HEALTHY, this, PdpMetrics::healthy).tag("engine", engine)
                .description("1 while the PDP has a verified bundle, else 0").register(meters);
        Gauge.builder(SESSIONS, sessions, store -> store.current().size())
                .description("current thread sessions in the shared store").register(meters);
        healthy();
    }

    /** The health gauge's value; also moves the revision gauge to the revision now in use. */
    private synchronized double healthy() {
        PdpStatus status = pdp.status();
        String now = status.bundleRevision().orElse(null);
        if (revision != null && !revision.getTag("revision").equals(now)) {
            registry.remove(revision);
            revision = null;
        }
        if (revision == null && now != null) {
            revision = Gauge.builder(REVISION, () -> 1).tag("engine", status.engine()).tag("revision", now)
                    .description("the bundle revision in use (value 1)").register(registry).getId();
        }
        return status.healthy() ? 1 : 0;
    }
}
