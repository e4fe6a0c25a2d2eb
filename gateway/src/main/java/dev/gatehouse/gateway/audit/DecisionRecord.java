package dev.gatehouse.gateway.audit;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.gateway.policy.Entrypoint;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.facts.WrittenInput;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.VisibleTools;
import dev.gatehouse.gateway.quota.Admission;
import dev.gatehouse.facts.CallerFacts;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * One decision to log (style card 7): the decision input exactly as the PDP got it and the PDP's answer, allow,
 * deny and fault alike, with a fresh decision id the PEP returns to the caller, and what the PEP's quota enforcement
 * made of it ({@link Admission}; docs/domain.md §10). A tools/call refused for its caller's fair share before it was
 * decided is recorded too, without input or result. Written by {@link DecisionLog} in the shape of
 * schemas/decision-log-record.json.
 */
public final class DecisionRecord {

    /** The MCP method a record is for. */
    public enum Method {
        /** One tools/call, evaluated at {@link Entrypoint#DECISION}. */
        TOOLS_CALL("tools/call", Entrypoint.DECISION),
        /** One tools/list, evaluated at {@link Entrypoint#VISIBLE_TOOLS}. */
        TOOLS_LIST("tools/list", Entrypoint.VISIBLE_TOOLS),
        /** One Project Work notice delivery decision, evaluated at {@link Entrypoint#NOTICE} (not an MCP call). */
        NOTICE("notice", Entrypoint.NOTICE);

        private final String wire;
        private final Entrypoint entrypoint;

        Method(String wire, Entrypoint entrypoint) {
            this.wire = wire;
            this.entrypoint = entrypoint;
        }

        /** The JSON-RPC method name. */
        public String wire() {
            return wire;
        }

        /** The entrypoint this method is decided at. */
        public Entrypoint entrypoint() {
            return entrypoint;
        }
    }

    private final UUID decisionId;
    private final Instant timestamp;
    private final Method method;
    private final DecisionInput input;
    private final PolicyOutcome<?> outcome;
    private final Optional<String> provider;
    private final ObjectNode noticeInput;
    private final String noticeAgentId;
    private final Admission admission;
    /** The tool of a call refused before its decision (its input was never built); null otherwise. */
    private final String refusedTool;
    /** A call's input as the PEP wrote it for the PDP; null when not written (then it is written from input). */
    private final WrittenInput written;

    private DecisionRecord(Method method, DecisionInput input, Optional<WrittenInput> written,
            Optional<String> provider, PolicyOutcome<?> outcome, Admission admission) {
        this.decisionId = UUID.randomUUID();
        this.timestamp = Instant.now();
        this.method = method;
        this.input = Objects.requireNonNull(input, "input");
        this.outcome = Objects.requireNonNull(outcome, "outcome");
        this.provider = Objects.requireNonNull(provider, "provider");
        this.noticeInput = null;
        this.noticeAgentId = null;
        this.admission = Objects.requireNonNull(admission, "admission");
        this.refusedTool = null;
        this.written = written.orElse(null);
    }

    private DecisionRecord(String tool, CallerFacts caller, Optional<String> provider, Admission.OverShare refusal) {
        this.decisionId = UUID.randomUUID();
        this.timestamp = Instant.now();
        this.method = Method.TOOLS_CALL;
        this.input = DecisionInput.forListing(caller);
        this.outcome = null;
        this.provider = Objects.requireNonNull(provider, "provider");
        this.noticeInput = null;
        this.noticeAgentId = null;
        this.admission = Objects.requireNonNull(refusal, "refusal");
        this.refusedTool = Objects.requireNonNull(tool, "tool");
        this.written = null;
    }

    private DecisionRecord(ObjectNode noticeInput, String agentId, PolicyOutcome<Decision> outcome) {
        this.decisionId = UUID.randomUUID();
        this.timestamp = Instant.now();
        this.method = Method.NOTICE;
        this.input = null;
        this.outcome = Objects.requireNonNull(outcome, "outcome");
        this.provider = Optional.empty();
        this.noticeInput = noticeInput.deepCopy();
        this.noticeAgentId = Objects.requireNonNull(agentId, "agentId");
        this.admission = new Admission.NotCharged();
        this.refusedTool = null;
        this.written = null;
    }

    /**
     * A notice delivery decision (or the fault that kept the PDP from deciding) for the notice's agent.
     *
     * @param input the input exactly as evaluated ({@code {"notice": {...}}}); copied
     */
    public static DecisionRecord forNotice(ObjectNode input, String agentId, PolicyOutcome<Decision> outcome) {
        return new DecisionRecord(input, agentId, outcome);
    }

    /** The evaluated input of a {@link Method#NOTICE} record; empty for MCP calls. */
    public Optional<ObjectNode> noticeInput() {
        return Optional.ofNullable(noticeInput);
    }

    /** The agent a {@link Method#NOTICE} record is about; empty for MCP calls. */
    public Optional<String> noticeAgentId() {
        return Optional.ofNullable(noticeAgentId);
    }

    /** A tools/call decision (or the fault that kept the PDP from deciding), not charged to any quota. */
    public static DecisionRecord forCall(DecisionInput input, PolicyOutcome<Decision> outcome) {
        return forCall(input, Optional.empty(), outcome, new Admission.NotCharged());
    }

    /**
     * A tools/call decision of a caller whose session names its provider kind, with what the quota step made of it.
     */
    public static DecisionRecord forCall(DecisionInput input, Optional<String> provider,
            PolicyOutcome<Decision> outcome, Admission admission) {
        return forCall(input, Optional.empty(), provider, outcome, admission);
    }

    /**
     * The same, of an input the PEP wrote once for the PDP ({@code written}, {@link WrittenInput#forCall} of
     * {@code input}): the record carries that text, and the log redacts that tree, instead of writing them again.
     */
    public static DecisionRecord forCall(DecisionInput input, Optional<WrittenInput> written,
            Optional<String> provider, PolicyOutcome<Decision> outcome, Admission admission) {
        return new DecisionRecord(Method.TOOLS_CALL, input, written, provider, outcome, admission);
    }

    /**
     * A tools/call refused before it was decided because its caller had every place of its fair share
     * (docs/domain.md §10): no input was built and no PDP asked, so the record has the tool, the caller and the
     * refusal only.
     */
    public static DecisionRecord forOverShare(String tool, CallerFacts caller, Optional<String> provider,
            Admission.OverShare refusal) {
        return new DecisionRecord(tool, caller, provider, refusal);
    }

    /** What the quota enforcement made of this call ({@link Admission.NotCharged} for listings and notices). */
    public Admission admission() {
        return admission;
    }

    /** The tool of a call refused before its decision; empty for every other record. */
    public Optional<String> refusedTool() {
        return Optional.ofNullable(refusedTool);
    }

    /** A tools/list answer (or the fault that kept the PDP from answering). */
    public static DecisionRecord forListing(DecisionInput input, PolicyOutcome<VisibleTools> outcome) {
        return forListing(input, Optional.empty(), outcome);
    }

    /** A tools/list answer for a caller whose session names its provider kind. */
    public static DecisionRecord forListing(DecisionInput input, Optional<String> provider,
            PolicyOutcome<VisibleTools> outcome) {
        return new DecisionRecord(Method.TOOLS_LIST, input, Optional.empty(), provider, outcome,
                new Admission.NotCharged());
    }

    /** The provider kind of the caller's session (thread callers), for the record's caller section only. */
    public Optional<String> provider() {
        return provider;
    }

    /** The id to return to the caller (MCP error {@code data} or result {@code _meta}). */
    public UUID decisionId() {
        return decisionId;
    }

    /** When the record was made (UTC). */
    public Instant timestamp() {
        return timestamp;
    }

    public Method method() {
        return method;
    }

    /** The decision input of an MCP call; null for a {@link Method#NOTICE} record (see {@link #noticeInput()}). */
    public DecisionInput input() {
        return input;
    }

    /** A call's input as the PEP wrote it for the PDP ({@link WrittenInput}); empty when it was not written. */
    Optional<WrittenInput> written() {
        return Optional.ofNullable(written);
    }

    /**
     * {@code PolicyOutcome<Decision>} for tools/call and notices, {@code PolicyOutcome<VisibleTools>} for tools/list;
     * null for a call refused before its decision ({@link #refusedTool()}).
     */
    public PolicyOutcome<?> outcome() {
        return outcome;
    }
}
