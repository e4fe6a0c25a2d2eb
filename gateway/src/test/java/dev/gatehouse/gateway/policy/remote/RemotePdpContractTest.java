package dev.gatehouse.gateway.policy.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.policy.PdpContractTest;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The golden matrix through a real OPA server, started once for the class. */
class RemotePdpContractTest extends PdpContractTest {

    private static final String REVISION = "golden-test-revision";

    private OpaServer opa;
    private RemotePdp pdp;

    @BeforeAll
    void start() throws Exception {
        opa = OpaServer.start(REVISION);
        RemotePdpConfiguration configuration = new RemotePdpConfiguration();
        configuration.setUrl(opa.url());
        // Generous for a shared 2-core CI machine; the deadline itself is tested against WireMock.
        configuration.setDeadline(Duration.ofSeconds(5));
        pdp = new RemotePdp(configuration);
    }

    @AfterAll
    void stop() throws Exception {
        pdp.close();
        opa.close();
    }

    @Override
    protected PolicyDecisionPoint pdp() {
        return pdp;
    }

    @Override
    protected String engineName() {
        return RemotePdp.ENGINE;
    }

    @Test
    void theRevisionComesFromOpasProvenance() {
        assertEquals(REVISION, pdp.status().bundleRevision().orElseThrow());
    }
}
