package dev.gatehouse.gateway.notice;

import dev.gatehouse.facade.host.ThreadModes;
import dev.gatehouse.facts.DecisionInputMapper;
import dev.gatehouse.facts.NoticeInput;
import dev.gatehouse.gateway.audit.DecisionRecord;
import dev.gatehouse.gateway.gate.DecisionRequest;
import dev.gatehouse.gateway.gate.GateReasons;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.ServedPolicy;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Project Work notice at the entry point {@code notice} (docs/domain.md §9), through the gate's own steps: a
 * decision of the same shape as a tools/call's, whose only obligation is {@code modes} ({@code runtimeMode} and
 * {@code interactionMode}) when a thread must be created for it.
 *
 * @param input   the notice input ({@link NoticeFacts#input})
 * @param agentId the notice's agent, whom the decision record is about
 */
record NoticeRequest(NoticeInput input, String agentId) implements DecisionRequest<Decision, NoticeRequest.Verdict> {

    private static final Logger LOG = LoggerFactory.getLogger(NoticeRequest.class);
    private static final String RUNTIME_MODE = "runtimeMode";
    private static final String INTERACTION_MODE = "interactionMode";

    NoticeRequest {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(agentId, "agentId");
    }

    /** What the enforce step made of a notice's decision. */
    sealed interface Verdict {
    }

    /** Deliver it; into a new thread with these modes when {@code create} is present, else into the mapped one. */
    record Allowed(Optional<ThreadModes> create) implements Verdict {
    }

    /**
     * Do not deliver it.
     *
     * @param codes     the policy's reason codes
     * @param retryable a reason is one the deciding revision's catalogue calls retryable (a fact was unavailable):
     *                  the notice waits instead of being refused for good
     */
    record Denied(List<String> codes, boolean retryable) implements Verdict {
    }

    @Override
    public DecisionRecord.Method method() {
        return DecisionRecord.Method.NOTICE;
    }

    @Override
    public PolicyOutcome<Decision> evaluate(ServedPolicy policy) {
        return policy.notice(input);
    }

    @Override
    public DecisionRecord record(PolicyOutcome<Decision> outcome) {
        return DecisionRecord.forNotice(DecisionInputMapper.forNotice(input), agentId, outcome);
    }

    @Override
    public Verdict enforce(ServedPolicy policy, Decision decision) {
        if (!decision.allow()) {
            List<String> codes = decision.reasons().stream().map(Decision.Reason::code).toList();
            return new Denied(codes, codes.stream().anyMatch(policy.contents()::retryable));
        }
        Optional<String> runtime = decision.obligations().mode(RUNTIME_MODE);
        Optional<String> interaction = decision.obligations().mode(INTERACTION_MODE);
        if (runtime.isPresent() != interaction.isPresent()) {
            LOG.error("policy allowed notice {} with only one of the modes a new thread needs; it waits",
                    input.notice().noticeId());
            return new Denied(List.of(GateReasons.POLICY_UNAVAILABLE), true);
        }
        return new Allowed(runtime.map(mode -> new ThreadModes(mode, interaction.get())));
    }
}
