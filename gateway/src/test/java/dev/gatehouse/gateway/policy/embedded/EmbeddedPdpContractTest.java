package dev.gatehouse.gateway.policy.embedded;

import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.policy.PdpContractTest;
import dev.gatehouse.gateway.policy.TestBundle;
import org.junit.jupiter.api.BeforeAll;

/** The golden matrix through the Wasm engine. */
class EmbeddedPdpContractTest extends PdpContractTest {

    private EmbeddedPdp pdp;

    @BeforeAll
    void start() {
        EmbeddedPdpConfiguration configuration = TestBundle.configuration(TestBundle.freshBundle());
        pdp = new EmbeddedPdp(configuration);
    }

    @Override
    protected PolicyDecisionPoint pdp() {
        return pdp;
    }

    @Override
    protected String engineName() {
        return EmbeddedPdp.ENGINE;
    }
}
