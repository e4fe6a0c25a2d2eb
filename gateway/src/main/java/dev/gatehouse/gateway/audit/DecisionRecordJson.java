package dev.gatehouse.gateway.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import dev.gatehouse.facts.CallerFacts;
import dev.gatehouse.facts.DecisionInputMapper;
import dev.gatehouse.gateway.policy.DecisionJson;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.facts.WrittenInput;
import dev.gatehouse.gateway.decisions.DecisionRecords;
import dev.gatehouse.gateway.policy.api.Decision;
import dev.gatehouse.gateway.policy.api.PolicyFault;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.VisibleTools;
import dev.gatehouse.gateway.quota.Admission;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Writes a {@link DecisionRecord} as one JSON object of schemas/decision-log-record.json. Field names follow OPA's
 * decision-log event where one exists ({@code decision_id, timestamp, path, input, result, bundles, metrics,
 * masked}), so {@code opa eval -I <query>} with {@code input} on stdin reproduces {@code result}; the Gatehouse
 * fields ({@code method, tool, caller, allow, reasons, obligations, fault}) make the log readable without a replay.
 *
 * <p>{@code input} is produced by the same {@link DecisionInputMapper} the engines use, so it is the evaluated
 * input; then {@link RecordRedactor} masks credential-like arguments (pointers in {@code masked}) and replaces
 * every long string, long member name and long {@code unicode} fact anywhere in the record by its length and
 * SHA-256 (pointers in {@code redacted} and {@code redactedKeys}), handing the values back to be kept once in the
 * values file. Putting those values back gives the evaluated input and the returned result, so every record
 * replays. (Long strings the policy does not read were already left out of the evaluated input, listed with their
 * length and SHA-256 in {@code omittedArguments}: they replay as they were evaluated, and are not kept.)
 * {@code caller} names the caller, never a credential: kind, logical agent id, thread id when a thread, the
 * provider kind of a thread caller's session.
 *
 * <p>A line longer than {@code max-record-bytes} is written reduced ({@link #reduce}): the decision, its reasons,
 * ids, caller and revision, and {@code reduced}, the length and SHA-256 of the whole record, which is kept in the
 * values file like any other value.
 */
final class DecisionRecordJson {

    /** The reason code the PEP denies with when the PDP failed (docs/domain.md §3). */
    static final String POLICY_UNAVAILABLE = "policy_unavailable";
    /** The reason code the PEP refuses a call over its quota or fair share with (docs/domain.md §10). */
    static final String RATE_LIMITED = "rate_limited";

    private DecisionRecordJson() {
    }

    /** Members a reduced line keeps, in this order: who asked what, and what was decided under which revision. */
    private static final List<String> REDUCED_KEEPS = List.of("decision_id", "timestamp", "path", "method", "tool",
            "caller", "allow", "reasons", "fault", "quota", "bundles", "metrics");

    /**
     * One record as written: its line, at most {@code maxRecordBytes} long (with the newline), the values its
     * stand-ins replaced, and what the decision index lists of it, read from the tree the line was written from.
     *
     * @param maxValueBytes  the longest string or member name kept in a record, in UTF-8 bytes
     * @param maxRecordBytes the longest line written whole, in UTF-8 bytes
     */
    static RecordLine encode(DecisionRecord record, int maxValueBytes, int maxRecordBytes) {
        // The input as the engine read it, its text written once for the memo and the engine, when redacting would
        // change none of it: then it is neither copied, walked nor written again here.
        Optional<WrittenInput> verbatim = record.method() == DecisionRecord.Method.TOOLS_CALL
                && record.refusedTool().isEmpty()
                ? record.written().filter(written -> !RecordRedactor.changes(written.json(), maxValueBytes))
                : Optional.empty();
        ObjectNode json = record.method() == DecisionRecord.Method.NOTICE ? notice(record)
                : call(record, verbatim.isPresent());
        RecordRedactor.Outcome outcome = RecordRedactor.redact(json, maxValueBytes);
        verbatim.ifPresent(written -> json.putRawValue("input", new RawValue(written.text())));
        list(json, "masked", outcome.masked());
        list(json, "redacted", outcome.redacted());
        if (!outcome.redactedKeys().isEmpty()) {
            json.putArray("redactedKeys").addAll(outcome.redactedKeys());
        }
        String text = PolicyJson.write(json);
        byte[] line = (text + "\n").getBytes(StandardCharsets.UTF_8);
        if (line.length <= maxRecordBytes) {
            return new RecordLine(line, outcome.values(), listing(json, record));
        }
        return reduce(json, text, line.length - 1, outcome.values(), maxRecordBytes, record);
    }

    /** What the decision index lists of the line written from {@code json}; null when only the line can tell. */
    private static DecisionRecords.Listing listing(ObjectNode json, DecisionRecord record) {
        return DecisionRecords.listing(json, record.decisionId(), record.timestamp()).orElse(null);
    }

    /**
     * The reduced line of a record too long to write whole: {@link #REDUCED_KEEPS}, and {@code reduced: {length,
     * sha256, json: true}} standing for the whole record, which goes to the values file. When even that is too long
     * (many long reason messages), each reason keeps its code and its message becomes a stand-in too. What is left
     * depends only on the policy's reason codes and the gateway's own fields, each string of which is at most the
     * value bound.
     */
    private static RecordLine reduce(ObjectNode whole, String text, int length, List<StoredValue> values,
            int maxRecordBytes, DecisionRecord of) {
        List<StoredValue> kept = new ArrayList<>(values);
        StoredValue record = StoredValue.ofJson(text, whole);
        kept.add(record);
        ObjectNode reduced = PolicyJson.MAPPER.createObjectNode();
        for (String member : REDUCED_KEEPS) {
            if (whole.has(member)) {
                reduced.set(member, whole.get(member).deepCopy()); // the whole record is kept as it is
            }
        }
        reduced.putObject("reduced").put("length", length).put("sha256", record.sha256()).put("json", true);
        byte[] line = (PolicyJson.write(reduced) + "\n").getBytes(StandardCharsets.UTF_8);
        if (line.length > maxRecordBytes) {
            for (JsonNode reason : reduced.path("reasons")) {
                JsonNode message = reason.get("message");
                if (message != null && message.isTextual()) {
                    byte[] bytes = message.textValue().getBytes(StandardCharsets.UTF_8);
                    String sha256 = StoredValue.sha256(bytes);
                    kept.add(StoredValue.ofString(sha256, message.textValue()));
                    ((ObjectNode) reason).putObject("message").put("length", bytes.length).put("sha256", sha256);
                }
            }
            line = (PolicyJson.write(reduced) + "\n").getBytes(StandardCharsets.UTF_8);
        }
        return new RecordLine(line, kept, listing(reduced, of));
    }

    private static void list(ObjectNode json, String member, List<String> pointers) {
        if (!pointers.isEmpty()) {
            ArrayNode list = json.putArray(member);
            pointers.forEach(list::add);
        }
    }

    /**
     * A tools/call or tools/list record, its input as evaluated; with {@code verbatim}, a {@code null} in the input's
     * place, for its written text to replace after redaction.
     */
    private static ObjectNode call(DecisionRecord record, boolean verbatim) {
        if (record.refusedTool().isPresent()) {
            return overShare(record);
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
        json.set("input", verbatim ? NullNode.getInstance() // keeps the member's place among the others
                : record.method() == DecisionRecord.Method.TOOLS_CALL
                ? record.written().map(written -> written.json().deepCopy()) // redacted in place below
                        // a copy too: the arguments' nodes are the input's own (SentArguments)
                        .orElseGet(() -> DecisionInputMapper.forCall(record.input()).deepCopy())
                : DecisionInputMapper.forListing(record.input()));
        PolicyOutcome<?> outcome = record.outcome();
        if (outcome instanceof PolicyOutcome.Failed<?> failed) {
            fault(json, failed.fault());
        } else if (record.method() == DecisionRecord.Method.TOOLS_CALL) {
            decision(json, (Decision) ((PolicyOutcome.Decided<?>) outcome).value());
        } else {
            listing(json, (VisibleTools) ((PolicyOutcome.Decided<?>) outcome).value());
        }
        quota(json, record.admission());
        return json;
    }

    /**
     * A call refused for its caller's fair share before its decision: who called what, {@code allow: false} with the
     * reason {@code rate_limited}, and {@code quota}; no input, result, bundles or metrics, as nothing was evaluated.
     */
    private static ObjectNode overShare(DecisionRecord record) {
        ObjectNode json = PolicyJson.MAPPER.createObjectNode();
        json.put("decision_id", record.decisionId().toString());
        json.put("timestamp", record.timestamp().toString());
        json.put("path", record.method().entrypoint().path());
        json.put("method", record.method().wire());
        json.put("tool", record.refusedTool().orElseThrow());
        ObjectNode caller = caller(record.input().caller());
        record.provider().ifPresent(provider -> caller.put("provider", provider));
        json.set("caller", caller);
        json.put("allow", false);
        json.putArray("reasons").addObject().put("code", RATE_LIMITED)
                .put("message", "the caller had every place of its share of the gateway; nothing was decided");
        quota(json, record.admission());
        return json;
    }

    /**
     * {@code quota}: what the PEP did with the call's quota (docs/domain.md §10). {@code outcome} is
     * {@code admitted}, {@code rate_limited} (then {@code code} is the PEP's reason code, the call did not run and
     * {@code retryAfterMs} says when to try again) or {@code unavailable} (the request's store time was spent before
     * its bucket was read: nothing was charged and the call did not run; the decisions search reads these two words
     * as its outcomes); {@code limit} is {@code budget} (the bucket of the decision's quota obligation, with {@code bucket}, {@code class} and which {@code budget} answered: {@code shared} or
     * {@code local}) or {@code share} (the caller's fair share, before any decision). Absent when nothing was charged.
     */
    private static void quota(ObjectNode json, Admission admission) {
        if (admission instanceof Admission.Admitted admitted) {
            json.putObject("quota").put("outcome", "admitted").put("limit", "budget")
                    .put("bucket", admitted.quota().bucket()).put("class", admitted.quota().bucketClass())
                    .put("budget", admitted.budget().wire());
        } else if (admission instanceof Admission.OverBudget over) {
            json.putObject("quota").put("outcome", RATE_LIMITED).put("code", RATE_LIMITED).put("limit", "budget")
                    .put("bucket", over.quota().bucket()).put("class", over.quota().bucketClass())
                    .put("budget", over.budget().wire()).put("retryAfterMs", over.retryAfterMs());
        } else if (admission instanceof Admission.TimeSpent spent) {
            json.putObject("quota").put("outcome", "unavailable").put("limit", "budget")
                    .put("bucket", spent.quota().bucket()).put("class", spent.quota().bucketClass());
        } else if (admission instanceof Admission.OverShare share) {
            json.putObject("quota").put("outcome", RATE_LIMITED).put("code", RATE_LIMITED).put("limit", "share")
                    .put("retryAfterMs", share.retryAfterMs());
        }
    }

    /**
     * A notice delivery decision: the same fields, with {@code caller} {@code {kind: "project_notice",
     * logicalAgentId}} and the notice facts as {@code input} (no arguments, so nothing to mask).
     */
    private static ObjectNode notice(DecisionRecord record) {
        ObjectNode json = PolicyJson.MAPPER.createObjectNode();
        json.put("decision_id", record.decisionId().toString());
        json.put("timestamp", record.timestamp().toString());
        json.put("path", record.method().entrypoint().path());
        json.put("method", record.method().wire());
        json.putObject("caller").put("kind", "project_notice")
                .put("logicalAgentId", record.noticeAgentId().orElseThrow());
        json.set("input", record.noticeInput().orElseThrow().deepCopy()); // redacted in place
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
