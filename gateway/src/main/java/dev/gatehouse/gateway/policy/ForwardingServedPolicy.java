package dev.gatehouse.gateway.policy;

import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.facts.NoticeInput;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.PolicyContents;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.ServedPolicy;
import dev.gatehouse.gateway.policy.api.VisibleTools;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A served revision that answers everything as another one does; a subclass overrides what it answers differently
 * (the decision memo answers decisions and listings it already knows).
 */
public abstract class ForwardingServedPolicy implements ServedPolicy {

    private final ServedPolicy revision;

    protected ForwardingServedPolicy(ServedPolicy revision) {
        this.revision = Objects.requireNonNull(revision, "revision");
    }

    /** The revision answered for. */
    protected ServedPolicy forwarded() {
        return revision;
    }

    @Override
    public String revision() {
        return revision.revision();
    }

    @Override
    public Optional<String> keyId() {
        return revision.keyId();
    }

    @Override
    public Instant activatedAt() {
        return revision.activatedAt();
    }

    @Override
    public PolicyContents contents() {
        return revision.contents();
    }

    @Override
    public PolicyOutcome<Decision> decide(DecisionInput input) {
        return revision.decide(input);
    }

    @Override
    public PolicyOutcome<VisibleTools> visibleTools(DecisionInput input) {
        return revision.visibleTools(input);
    }

    @Override
    public PolicyOutcome<Decision> notice(NoticeInput input) {
        return revision.notice(input);
    }

    @Override
    public PolicyOutcome<List<String>> heldCapabilities(DecisionInput input) {
        return revision.heldCapabilities(input);
    }
}
