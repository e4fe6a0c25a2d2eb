package dev.gatehouse.gateway.audit;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.gateway.policy.api.CallerFacts;
import dev.gatehouse.gateway.policy.DecisionInputMapper;
import dev.gatehouse.gateway.policy.DecisionJson;
import dev.gatehouse.gateway.policy.PolicyJson;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.PolicyFault;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.VisibleTools;
import java.util.List;
import java.util.Optional;

/**
 * Writes a {@link DecisionRecord} as one JSON object of schemas/decision-log-record.json. Field names follow OPA's
 * decision-log event where one exists ({@code decision_id, timestamp, path, input, result, bundles, metrics,
 * masked}), so {@code opa eval -I <query>} with {@code input} on stdin reproduces {@code result}; the Gatehouse
 * fields ({@code method, tool, caller, allow, reasons, obligations, fault}) make the log readable without a replay.
 *
 * <p>{@code input} is produced by the same {@link DecisionInputMapper} the engines use, so it is the evaluated
 * input, then masked ({@link ArgumentMasker}, pointers in {@code masked}) and stripped of long strings
 * ({@link LargeValueRedactor}, pointers in {@code redacted}). Outside those pointers {@code input} is the evaluated
 * input; a record without {@code redacted} replays to its {@code result}. (Long strings the policy does not read
 * were already left out of the evaluated input, listed with their length and SHA-256 in {@code omittedArguments}:
 * they replay as they were evaluated.) {@code caller} names the caller, never a
 * credential: kind, logical agent id, thread id when a thread, the provider kind of a thread caller's session.
 */
final class DecisionRecordJson {

    /** The reason code the PEP denies with when the PDP failed (docs/domain.md §3). */
    static final String POLICY_UNAVAILABLE = "policy_unavailable";

    private DecisionRecordJson() {
    }

    /**
     * @param maxArgumentBytes the longest argument string kept, in UTF-8 bytes (see {@link LargeValueRedactor})
     */
    static ObjectNode encode(DecisionRecord record, int maxArgumentBytes) {
        if (record.method() == DecisionRecord.Method.NOTICE) {
            return notice(record);
        }
        ObjectNode json = PolicyJson.MAPPER.createObjectNode();
        json.put("decision_id", record.decisionId().toString());
        json.put("timestamp", record.timestamp().toString());
        json.put("path", record.method().entrypoint().path());
        json.put("method", record.method().wire());
        if (record.method() == DecisionRecord.Method.TOOLS_CALL) {
            record.input().tool().ifPresent(tool -> json.put("tool", tool));
        }
        ObjectNode caller = caller(record.input().caller());
        record.provider().ifPresent(provider -> caller.put("provider", provider));
        json.set("caller", caller);
        ObjectNode input = record.method() == DecisionRecord.Method.TOOLS_CALL
                ? DecisionInputMapper.forCall(record.input())
                : DecisionInputMapper.forListing(record.input());
        List<String> masked = ArgumentMasker.mask(input);
        List<String> redacted = LargeValueRedactor.redact(input, maxArgumentBytes);
        json.set("input", input);
        if (!masked.isEmpty()) {
            ArrayNode list = json.putArray("masked");
            masked.forEach(list::add);
        }
        if (!redacted.isEmpty()) {
            ArrayNode list = json.putArray("redacted");
            redacted.forEach(list::add);
        }
        PolicyOutcome<?> outcome = record.outcome();
        if (outcome instanceof PolicyOutcome.Failed<?> failed) {
            fault(json, failed.fault());
        } else if (record.method() == DecisionRecord.Method.TOOLS_CALL) {
            decision(json, (Decision) ((PolicyOutcome.Decided<?>) outcome).value());
        } else {
            listing(json, (VisibleTools) ((PolicyOutcome.Decided<?>) outcome).value());
        }
        return json;
    }

    /**
     * A notice delivery decision: the same fields, with {@code caller} {@code {kind: "project_notice",
     * logicalAgentId}} and the notice facts as {@code input} (no arguments, so nothing to mask or redact).
     */
    private static ObjectNode notice(DecisionRecord record) {
        ObjectNode json = PolicyJson.MAPPER.createObjectNode();
        json.put("decision_id", record.decisionId().toString());
        json.put("timestamp", record.timestamp().toString());
        json.put("path", record.method().entrypoint().path());
        json.put("method", record.method().wire());
        json.putObject("caller").put("kind", "project_notice")
                .put("logicalAgentId", record.noticeAgentId().orElseThrow());
        json.set("input", record.noticeInput().orElseThrow());
        if (record.outcome() instanceof PolicyOutcome.Failed<?> failed) {
            fault(json, failed.fault());
        } else {
            decision(json, (Decision) ((PolicyOutcome.Decided<?>) record.outcome()).value());
        }
        return json;
    }

    private static void decision(ObjectNode json, Decision decision) {
        ObjectNode result = DecisionJson.decision(decision);
        json.set("result", result);
        provenance(json, decision.bundleRevision(), decision.bundleKeyId(), decision.evalMicros());
        json.put("allow", decision.allow());
        json.set("reasons", result.get("reasons").deepCopy());
        json.set("obligations", result.get("obligations").deepCopy());
    }

    private static void listing(ObjectNode json, VisibleTools tools) {
        json.set("result", DecisionJson.visibleTools(tools));
        provenance(json, tools.bundleRevision(), tools.bundleKeyId(), tools.evalMicros());
        json.put("allow", true);
        json.putArray("reasons");
    }

    private static void fault(ObjectNode json, PolicyFault fault) {
        json.put("allow", false);
        json.putArray("reasons").addObject()
                .put("code", POLICY_UNAVAILABLE)
                .put("message", "the policy decision point could not decide (" + fault.code() + ")");
        json.putObject("fault").put("code", fault.code()).put("detail", fault.detail());
    }

    private static void provenance(ObjectNode json, String revision, Optional<String> keyId, long evalMicros) {
        ObjectNode bundle = json.putObject("bundles").putObject("gatehouse").put("revision", revision);
        keyId.ifPresent(id -> bundle.put("keyid", id));
        json.putObject("metrics").put("timer_eval_us", evalMicros);
    }

    private static ObjectNode caller(CallerFacts facts) {
        ObjectNode caller = PolicyJson.MAPPER.createObjectNode();
        caller.put("kind", facts.kind());
        caller.put("logicalAgentId", facts.logicalAgentId());
        facts.threadId().ifPresent(id -> caller.put("threadId", id));
        return caller;
    }
}
