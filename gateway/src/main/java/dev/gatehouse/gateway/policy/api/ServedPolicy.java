package dev.gatehouse.gateway.policy.api;

import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.facts.WrittenInput;
import dev.gatehouse.facts.NoticeInput;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One activated policy revision: what it says the PEP enforces ({@link #contents()}) together with the engine that
 * decides on it. The PEP takes the serving revision once per call ({@link PolicyDecisionPoint#serving()}) and uses
 * it for everything (the row, the schema, the decision, the retryable codes), so no call mixes two revisions, and
 * the decision record names the one it used (docs/design.md, "One served revision").
 *
 * <p>Fail-closed contract as on {@link PolicyDecisionPoint}: no method throws; anything but a well-formed answer is
 * {@link PolicyOutcome.Failed}.
 */
public interface ServedPolicy {

    /** The manifest revision ({@code opa build --revision}). */
    String revision();

    /** The id of the key that verified the revision's signature; empty when unsigned or verified elsewhere. */
    Optional<String> keyId();

    /** When this gateway activated the revision. */
    Instant activatedAt();

    /** The access table, tool schemas and reason catalogue of this revision. */
    PolicyContents contents();

    /**
     * Evaluates {@code data.gatehouse.authz.decision} (schemas/decision.json) for one tools/call on this revision.
     *
     * @param input the decision input (schemas/decision-input.json)
     * @return the decision, or the fault that kept the engine from deciding
     */
    PolicyOutcome<Decision> decide(DecisionInput input);

    /**
     * {@link #decide(DecisionInput)} of an input the PEP has written already ({@code written}: its
     * {@link dev.gatehouse.facts.DecisionInputMapper#forCall} tree and text), so it is not written again here; the
     * decision log records the same text.
     */
    default PolicyOutcome<Decision> decide(DecisionInput input, WrittenInput written) {
        return decide(input);
    }

    /**
     * Evaluates {@code data.gatehouse.authz.visible_tools} for tools/list on this revision: the names this caller
     * may call, in one evaluation.
     *
     * @param input the decision input without tool, arguments and argument errors
     * @return the sorted tool names, or the fault that kept the engine from deciding
     */
    PolicyOutcome<VisibleTools> visibleTools(DecisionInput input);

    /**
     * Evaluates {@code data.gatehouse.authz.notice} for one Project Work notice on this revision (docs/domain.md §9):
     * a decision of the same shape as a tools/call's, whose only obligation is {@code modes} when a thread must be
     * created.
     *
     * @return the decision, or the fault that kept the engine from deciding (which never delivers)
     */
    PolicyOutcome<Decision> notice(NoticeInput input);

    /**
     * Evaluates {@code data.gatehouse.authz.held_capabilities} on this revision: the capability scopes the input's
     * caller holds (docs/domain.md §4), for the admin read API.
     *
     * @return the scopes, sorted, or the fault that kept the engine from answering
     */
    PolicyOutcome<List<String>> heldCapabilities(DecisionInput input);
}
