package dev.gatehouse.gateway.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gatehouse.gateway.policy.api.PdpStatus;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.policy.api.PolicyFault;
import dev.gatehouse.gateway.policy.api.ServedPolicy;
import dev.gatehouse.gateway.support.InMemorySessionStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The bundle-revision gauge follows the revision the PDP reports at each read of the meters (a scrape), the way a
 * hot swap of the bundle will change it: the old revision's series goes away, and a PDP without a bundle has none.
 */
class PdpMetricsTest {

    /** A PDP whose status the test sets; it decides nothing (only its status is read here). */
    private static final class StatusOnly implements PolicyDecisionPoint {
        volatile PdpStatus status;

        @Override
        public Optional<ServedPolicy> serving() {
            throw new UnsupportedOperationException();
        }

        @Override
        public PdpStatus status() {
            return status;
        }
    }

    @Test
    void theRevisionSeriesFollowsTheBundleInUse() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        StatusOnly pdp = new StatusOnly();
        pdp.status = new PdpStatus("embedded", Optional.of("rev-a"), Optional.empty());
        new PdpMetrics(pdp, new InMemorySessionStore(), meters);
        assertEquals(1, meters.get(PdpMetrics.REVISION).tag("revision", "rev-a").gauge().value());

        pdp.status = new PdpStatus("embedded", Optional.of("rev-b"), Optional.empty());
        assertEquals(1, meters.get(PdpMetrics.HEALTHY).gauge().value()); // a scrape reads every gauge
        assertEquals(1, meters.get(PdpMetrics.REVISION).tag("revision", "rev-b").gauge().value());
        assertNull(meters.find(PdpMetrics.REVISION).tag("revision", "rev-a").gauge(), "the old revision is gone");

        pdp.status = new PdpStatus("embedded", Optional.empty(),
                Optional.of(new PolicyFault("bundle_unavailable", "no bundle")));
        assertEquals(0, meters.get(PdpMetrics.HEALTHY).gauge().value());
        assertNull(meters.find(PdpMetrics.REVISION).gauge(), "no bundle, no revision");
        assertEquals(0, meters.get(PdpMetrics.SESSIONS).gauge().value());
    }
}
