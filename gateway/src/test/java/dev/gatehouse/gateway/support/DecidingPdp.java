package dev.gatehouse.gateway.support;

import dev.gatehouse.gateway.policy.ForwardingServedPolicy;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.gateway.policy.api.PdpStatus;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.ServedPolicy;
import java.util.Optional;
import java.util.function.Function;

/**
 * A PDP that serves a real engine's revision but answers tools/call decisions with {@code decide}: for gate tests of
 * what the PEP does with answers the real policy never gives (a busy engine, an allow without obligations).
 */
public final class DecidingPdp implements PolicyDecisionPoint {

    private final PolicyDecisionPoint real;
    private final Function<DecisionInput, PolicyOutcome<Decision>> decide;

    public DecidingPdp(PolicyDecisionPoint real, Function<DecisionInput, PolicyOutcome<Decision>> decide) {
        this.real = real;
        this.decide = decide;
    }

    @Override
    public Optional<ServedPolicy> serving() {
        return real.serving().map(Served::new);
    }

    @Override
    public PdpStatus status() {
        return real.status();
    }

    private final class Served extends ForwardingServedPolicy {

        Served(ServedPolicy revision) {
            super(revision);
        }

        @Override
        public PolicyOutcome<Decision> decide(DecisionInput input) {
            return decide.apply(input);
        }
    }
}
