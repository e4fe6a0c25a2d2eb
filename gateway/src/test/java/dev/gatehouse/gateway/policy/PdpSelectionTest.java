package dev.gatehouse.gateway.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.gateway.audit.DecisionLog;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdp;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdpConfiguration;
import dev.gatehouse.gateway.policy.remote.RemotePdp;
import io.micronaut.context.ApplicationContext;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code gatehouse.policy.engine} picks exactly one PDP bean; neither engine's faults stop the context. */
class PdpSelectionTest {

    @TempDir
    Path dir;

    @Test
    void embeddedIsTheDefault() {
        try (ApplicationContext context = ApplicationContext.run(Map.of(
                "gatehouse.policy.bundle-path", TestBundle.freshBundle().toString(),
                "gatehouse.policy.pool-size", 3,
                "gatehouse.audit.path", dir.resolve("d.jsonl").toString()))) {
            PolicyDecisionPoint pdp = context.getBean(PolicyDecisionPoint.class);
            assertInstanceOf(MemoizingPdp.class, pdp, "the memo fronts the embedded engine by default");
            assertTrue(context.containsBean(EmbeddedPdp.class));
            assertTrue(pdp.status().healthy());
            assertEquals(context.getBean(EmbeddedPdp.class).status(), pdp.status());
            assertFalse(context.containsBean(RemotePdp.class));
            assertEquals(dir.resolve("d.jsonl"), context.getBean(DecisionLog.class).file());
            // Present only when the setting was read (unset means one per processor, whatever this machine has).
            EmbeddedPdpConfiguration configuration = context.getBean(EmbeddedPdpConfiguration.class);
            assertEquals(Optional.of(3), configuration.getPoolSize(), "gatehouse.policy.pool-size is bound");
            assertEquals(3, configuration.poolSize());
        }
    }

    @Test
    void theMemoCanBeTurnedOff() {
        try (ApplicationContext context = ApplicationContext.run(Map.of(
                "gatehouse.policy.bundle-path", TestBundle.freshBundle().toString(),
                "gatehouse.policy.memo.enabled", false,
                "gatehouse.audit.path", dir.resolve("d.jsonl").toString()))) {
            assertInstanceOf(EmbeddedPdp.class, context.getBean(PolicyDecisionPoint.class));
            assertFalse(context.containsBean(MemoizingPdp.class));
        }
    }

    @Test
    void aMissingBundleStillStartsTheContext() {
        try (ApplicationContext context = ApplicationContext.run(Map.of(
                "gatehouse.policy.bundle-path", dir.resolve("missing.tar.gz").toString()))) {
            assertFalse(context.getBean(PolicyDecisionPoint.class).status().healthy());
        }
    }

    @Test
    void remoteIsChosenByProperty() throws Exception {
        int unused;
        try (ServerSocket socket = new ServerSocket(0)) {
            unused = socket.getLocalPort();
        }
        try (ApplicationContext context = ApplicationContext.run(Map.of(
                "gatehouse.policy.engine", "remote",
                "gatehouse.policy.remote.url", "http://127.0.0.1:" + unused,
                "gatehouse.policy.remote.deadline", "200ms"))) {
            PolicyDecisionPoint pdp = context.getBean(PolicyDecisionPoint.class);
            assertInstanceOf(RemotePdp.class, pdp);
            assertFalse(pdp.status().healthy(), "nothing listens there");
            assertFalse(context.containsBean(EmbeddedPdp.class));
        }
    }
}
