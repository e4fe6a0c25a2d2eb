package dev.gatehouse.gateway.mcp;

import dev.gatehouse.facade.error.ServiceError;
import dev.gatehouse.gateway.gate.GateReasons;
import dev.gatehouse.gateway.gate.GateResult;
import dev.gatehouse.gateway.policy.api.Decision.Reason;
import dev.gatehouse.gateway.tools.ToolOutcome;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one mapping from a decided {@link GateResult} to an MCP tool result (style card 10), shared by both eras:
 * <ul>
 * <li>denied: {@code isError: true}, {@code structuredContent {kind: "denied", reasons: [{code, message}],
 * decisionId}}; when every reason is retryable ({@link GateResult.Denied#retryable()}) the kind is
 * {@code unavailable} with {@code retryable: true}: nothing about the call was wrong;</li>
 * <li>rate limited (docs/domain.md §10): {@code isError: true}, {@code {kind: "rate_limited", retryable: true,
 * retryAfterMs, reasons: [{code: "rate_limited", message}], decisionId}}: nothing was wrong with the call, and no
 * service was called; try again after {@code retryAfterMs};</li>
 * <li>handler succeeded: {@code structuredContent} = the handler's projected result;</li>
 * <li>service failure: {@code isError: true}, {@code {kind, retryable?, message, hint?, operationId?, decisionId}};
 * the hint is the toolkit's own (docs/domain.md §8): the tool that shows the current state; {@code retryable: true}
 * for {@code unavailable} only, as on a retryable denial, so every {@code unavailable} an agent gets says so;</li>
 * <li>handler fault: {@code isError: true}, {@code {kind: "internal", message, decisionId}}, no exception text.</li>
 * </ul>
 * The text content repeats the structured content as JSON for clients that read only text. The decision id is also
 * in {@code _meta["dev.gatehouse/decisionId"]}.
 *
 * @param structuredContent the structured content
 * @param isError           whether this is a tool error result
 * @param decisionId        the decision log id
 */
public record ToolReply(Map<String, Object> structuredContent, boolean isError, String decisionId) {

    /** {@code _meta} key of the decision id. */
    public static final String DECISION_ID_META = "dev.gatehouse/decisionId";

    /** Maps the result of a logged decision (a fault has no tool result: {@link GateFaultReply}). */
    public static ToolReply of(GateResult.Decided result) {
        if (result instanceof GateResult.Denied denied) {
            return denial(denied.decisionId(), denied.reasons(), denied.retryable());
        }
        if (result instanceof GateResult.RateLimited limited) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("kind", GateReasons.RATE_LIMITED);
            body.put("retryable", true);
            body.put("retryAfterMs", limited.retryAfterMs());
            body.put("reasons", List.of(reason(limited.reason())));
            body.put("decisionId", limited.decisionId());
            return new ToolReply(body, true, limited.decisionId());
        }
        if (result instanceof GateResult.Completed completed) {
            if (completed.outcome() instanceof ToolOutcome.Succeeded ok) {
                return new ToolReply(ok.structuredContent(), false, completed.decisionId());
            }
            ToolOutcome.Failed failed = (ToolOutcome.Failed) completed.outcome();
            return new ToolReply(serviceError(failed.error(), failed.hint(), completed.decisionId()), true,
                    completed.decisionId());
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("kind", "internal");
        body.put("message", "the tool failed; quote the decision id to the operator");
        body.put("decisionId", result.decisionId());
        return new ToolReply(body, true, result.decisionId());
    }

    private static ToolReply denial(String decisionId, List<Reason> reasons, boolean fault) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("kind", fault ? ServiceError.Unavailable.KIND : "denied");
        if (fault) {
            body.put("retryable", true);
        }
        body.put("reasons", reasons.stream().map(ToolReply::reason).toList());
        body.put("decisionId", decisionId);
        return new ToolReply(body, true, decisionId);
    }

    /** {@code _meta} of the result. */
    public Map<String, Object> meta() {
        return Map.of(DECISION_ID_META, decisionId);
    }

    private static Map<String, Object> reason(Reason reason) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("code", reason.code());
        body.put("message", reason.message());
        return body;
    }

    private static Map<String, Object> serviceError(ServiceError error, Optional<String> hint, String decisionId) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("kind", error.kind());
        if (error instanceof ServiceError.Unavailable) {
            body.put("retryable", true);
        }
        body.put("message", error.message());
        hint.ifPresent(tool -> body.put("hint", tool));
        if (error instanceof ServiceError.Uncertain uncertain) {
            uncertain.operationId().ifPresent(id -> body.put("operationId", id));
        }
        if (error instanceof ServiceError.NotFound notFound) {
            body.put("what", notFound.what());
        }
        if (error instanceof ServiceError.Rejected rejected) {
            body.put("serviceCode", rejected.serviceCode());
        }
        body.put("decisionId", decisionId);
        return body;
    }
}
