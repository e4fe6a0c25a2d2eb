package dev.gatehouse.gateway.notice;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.error.ServiceError;
import dev.gatehouse.facade.host.NoticeThread;
import dev.gatehouse.facade.host.NoticeThreads;
import dev.gatehouse.facade.host.ThreadModes;
import dev.gatehouse.gateway.context.AgentDirectory;
import dev.gatehouse.gateway.context.AgentKey;
import dev.gatehouse.gateway.gate.GateFault;
import dev.gatehouse.gateway.gate.GatePipeline;
import dev.gatehouse.gateway.gate.GatePipeline.Gated;
import dev.gatehouse.gateway.gate.GatePipeline.Gathered;
import dev.gatehouse.gateway.notice.NoticeStore.Group;
import dev.gatehouse.gateway.notice.NoticeStore.Receipt;
import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.policy.api.ServedPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Decides and logs the open notices of one agent + project through the gate's steps ({@link GatePipeline}): the
 * facts once for the group ({@link NoticeFacts}), then per notice its {@link NoticeRequest} (decision, decision log,
 * enforce), all on the one revision taken for the pass. Acts on nothing: the delivery stores refusals, gathers and
 * sends what this allowed.
 */
final class NoticeDecisions {

    private final Optional<String> clientId;
    private final NoticeStore store;
    private final NoticeThreads host;
    private final AgentDirectory directory;
    private final PolicyDecisionPoint pdp;
    private final GatePipeline pipeline;

    NoticeDecisions(Optional<String> clientId, NoticeStore store, NoticeThreads host, AgentDirectory directory,
            PolicyDecisionPoint pdp, GatePipeline pipeline) {
        this.clientId = clientId;
        this.store = store;
        this.host = host;
        this.directory = directory;
        this.pdp = pdp;
        this.pipeline = pipeline;
    }

    /** A notice the policy refused, with the id of the logged decision. */
    record Refusal(Receipt receipt, List<String> codes, UUID decisionId) {
    }

    /**
     * The decisions of one pass, in the order the notices were decided.
     *
     * @param thread  the group's mapped thread as the facts step found it (empty when the facts were not gathered)
     * @param allowed the notices to deliver
     * @param create  the modes of a thread to create for them, when the decision says to create one
     * @param refused the notices the policy refused
     * @param retry   why the pass stopped and the group must wait: a {@link GateFault}, or a decision whose reasons
     *                are retryable; the notices decided before it stay decided
     */
    record Pass(Optional<ThreadLookup> thread, List<Receipt> allowed, Optional<ThreadModes> create,
            List<Refusal> refused, Optional<String> retry) {

        Pass {
            Objects.requireNonNull(thread, "thread");
            allowed = List.copyOf(allowed);
            refused = List.copyOf(refused);
        }

        static Pass faulted(GateFault fault) {
            return new Pass(Optional.empty(), List.of(), Optional.empty(), List.of(), Optional.of(fault.detail()));
        }
    }

    /**
     * Decides each open notice; while the mapped thread is busy, a notice already gathered ({@code coalesced}) is
     * not decided again until the turn ends.
     */
    Pass decide(Group group, List<Receipt> open) {
        Optional<ServedPolicy> served = pdp.serving(); // taken once: every notice of this pass is decided on it
        Gathered<NoticeFacts> gathered = pipeline.facts(() -> facts(group));
        if (gathered instanceof Gathered.Unavailable<NoticeFacts> unavailable) {
            return Pass.faulted(unavailable.fault());
        }
        NoticeFacts facts = ((Gathered.Facts<NoticeFacts>) gathered).value();
        ThreadLookup thread = facts.thread();
        if (thread.outcome() == ThreadLookup.Outcome.UNAVAILABLE) {
            // docs/domain.md §9: a thread lookup that fails leaves the notice waiting, not decided.
            return Pass.faulted(GateFault.facts("the host could not report thread " + thread.threadId().orElse("?")));
        }
        List<Receipt> allowed = new ArrayList<>();
        List<Refusal> refused = new ArrayList<>();
        Optional<ThreadModes> create = Optional.empty();
        for (Receipt receipt : open) {
            if (thread.busy() && receipt.state() == NoticeState.COALESCED) {
                continue;
            }
            Gated<NoticeRequest.Verdict> gated = pipeline.decide(served,
                    () -> new NoticeRequest(facts.input(receipt), group.agentId()));
            if (gated instanceof Gated.Faulted<NoticeRequest.Verdict> faulted) {
                return new Pass(Optional.of(thread), allowed, create, refused, Optional.of("notice "
                        + receipt.noticeId() + ": " + faulted.fault().detail()));
            }
            Gated.Passed<NoticeRequest.Verdict> passed = (Gated.Passed<NoticeRequest.Verdict>) gated;
            if (passed.verdict() instanceof NoticeRequest.Allowed allow) {
                allowed.add(receipt);
                if (allow.create().isPresent()) {
                    create = allow.create();
                }
                continue;
            }
            NoticeRequest.Denied denied = (NoticeRequest.Denied) passed.verdict();
            if (denied.retryable()) {
                return new Pass(Optional.of(thread), allowed, create, refused, Optional.of("notice "
                        + receipt.noticeId() + " could not be decided: a fact is unavailable"));
            }
            refused.add(new Refusal(receipt, denied.codes(), passed.decisionId()));
        }
        return new Pass(Optional.of(thread), allowed, create, refused, Optional.empty());
    }

    /** The {@code facts} step of a pass: the store's profile and settings, and the host's view of the thread. */
    private NoticeFacts facts(Group group) {
        return new NoticeFacts(clientId, store.profile(group.agentId()),
                directory.settings(AgentKey.thread(group.agentId())), lookup(group));
    }

    private ThreadLookup lookup(Group group) {
        Optional<String> mapped = store.thread(group);
        if (mapped.isEmpty()) {
            return ThreadLookup.none();
        }
        FacadeResult<NoticeThread> shell = host.thread(mapped.get());
        if (shell instanceof FacadeResult.Ok<NoticeThread> ok) {
            return ThreadLookup.found(ok.value());
        }
        ServiceError error = ((FacadeResult.Failed<NoticeThread>) shell).error();
        return error instanceof ServiceError.NotFound ? ThreadLookup.notFound(mapped.get())
                : ThreadLookup.unavailable(mapped.get());
    }
}
