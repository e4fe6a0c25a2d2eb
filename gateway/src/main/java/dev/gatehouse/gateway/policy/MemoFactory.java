package dev.gatehouse.gateway.policy;

import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdp;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Primary;
import io.micronaut.context.annotation.Requires;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.inject.Singleton;

/**
 * Puts the decision memo ({@link MemoizingPdp}) in front of the embedded engine, as the {@link PolicyDecisionPoint}
 * the gate and the health endpoint receive. Only the embedded engine: its revision is the bundle it loaded itself,
 * while a remote OPA can change its bundle unseen, so a memo there could answer from a bundle no longer served.
 * Off with {@code gatehouse.policy.memo.enabled=false}.
 */
@Factory
final class MemoFactory {

    @Singleton
    @Primary
    @Requires(property = "gatehouse.policy.engine", value = EmbeddedPdp.ENGINE, defaultValue = EmbeddedPdp.ENGINE)
    @Requires(property = MemoConfiguration.PREFIX + ".enabled", notEquals = "false")
    PolicyDecisionPoint memoizingPdp(EmbeddedPdp engine, MemoConfiguration configuration, MeterRegistry meters) {
        return MemoizingPdp.over(engine, configuration, meters);
    }
}
