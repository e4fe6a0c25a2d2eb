package dev.gatehouse.gateway.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.Obligations;
import dev.gatehouse.gateway.policy.api.PolicyFault;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.Quota;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The quota step on the test time of {@link TestQuotas}: a token due within {@code max-wait} is waited for, one due
 * later is refused with the rest of the wait as {@code retryAfterMs}; only an allow with a quota is charged.
 */
class QuotaStepTest {

    private static PolicyOutcome<Decision> allow(Quota quota) {
        return new PolicyOutcome.Decided<>(new Decision(true, List.of(),
                new Obligations(Map.of(), Map.of(), Optional.empty(), Optional.of(quota)), "rev", 1));
    }

    @Test
    void aTokenDueWithinTheWaitIsWaitedFor() {
        TestQuotas quotas = new TestQuotas();
        QuotaStep step = quotas.step();
        Quota quota = new Quota("thread/read/a1", "read", 600, 2); // one token every 100 ms
        assertInstanceOf(Admission.Admitted.class, step.admit(allow(quota)));
        assertInstanceOf(Admission.Admitted.class, step.admit(allow(quota)));
        assertEquals(0, quotas.ticks.get());
        assertInstanceOf(Admission.Admitted.class, step.admit(allow(quota)));
        assertEquals(TimeUnit.MILLISECONDS.toNanos(100), quotas.ticks.get(), "waited exactly for the next token");
    }

    @Test
    void aTokenDueLaterIsRefusedWithTheRestOfTheWait() {
        TestQuotas quotas = new TestQuotas();
        QuotaStep step = quotas.step();
        Quota quota = new Quota("thread/wiki_write/a1", "wiki_write", 60, 1); // one token a second
        assertInstanceOf(Admission.Admitted.class, step.admit(allow(quota)));
        Admission.OverBudget over = assertInstanceOf(Admission.OverBudget.class, step.admit(allow(quota)));
        assertEquals(750, over.retryAfterMs());
        assertEquals(TimeUnit.MILLISECONDS.toNanos(250), quotas.ticks.get(), "answered after max-wait, not at once");
        quotas.ticks.addAndGet(TimeUnit.MILLISECONDS.toNanos(750));
        assertInstanceOf(Admission.Admitted.class, step.admit(allow(quota)), "after retryAfterMs there is a token");
        assertEquals(1.0, quotas.meters.get(QuotaMetrics.CHARGES).tag("class", "wiki_write").tag("outcome", "refused")
                .tag("budget", "shared").counter().count());
    }

    @Test
    void denialsFaultsAndAllowsWithoutAQuotaAreNotCharged() {
        TestQuotas quotas = new TestQuotas();
        QuotaStep step = quotas.step();
        for (PolicyOutcome<Decision> outcome : List.of(
                new PolicyOutcome.Decided<>(new Decision(false, List.of(new Decision.Reason("unknown_tool", "m")),
                        Obligations.NONE, "rev", 1)),
                new PolicyOutcome.Failed<Decision>(new PolicyFault(PolicyFault.BUSY, "busy")),
                new PolicyOutcome.Decided<>(new Decision(true, List.of(), Obligations.NONE, "rev", 1)))) {
            assertInstanceOf(Admission.NotCharged.class, step.admit(outcome));
        }
        assertEquals(0, quotas.meters.find(QuotaMetrics.CHARGES).counters().size());
    }
}
