package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.policy.PolicyDocument;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.QueryValue;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * The admin read API over the policy itself, for reviewers and operators (admin credential, like the rest of
 * {@code /admin}). Both answers are computed by the PDP that decides calls, from the bundle it serves, so they show
 * what is enforced rather than what a file says:
 * <ul>
 * <li>{@code GET /admin/access-table} → 200 {@code {revision, accessTable}}: the access table as served;</li>
 * <li>{@code GET /admin/agents/{agentId}/capabilities[?ceiling=]} → 200 {@code {agentId, kind, capabilities,
 * revision}}: the scopes the agent holds now ({@link HeldCapabilities}, which the console shows too). A thread agent
 * holds them as a thread caller; an outside agent ({@code oa-…}) as an outside agent approved at {@code ceiling}
 * (default {@code read-only}: the ceiling comes with each token).</li>
 * </ul>
 * 503 {@code {error: "policy_unavailable"}} when the PDP cannot answer (no bundle, remote OPA down).
 */
@Controller("/admin")
public class PolicyReadController {

    private final HeldCapabilities held;

    public PolicyReadController(HeldCapabilities held) {
        this.held = held;
    }

    @Get("/access-table")
    public HttpResponse<?> accessTable() {
        return answer(held.accessTable(), (body, document) -> body.put("accessTable", document.value()));
    }

    @Get("/agents/{agentId}/capabilities")
    public HttpResponse<?> capabilities(String agentId, @Nullable @QueryValue String ceiling) {
        return answer(held.of(agentId, Optional.ofNullable(ceiling)), (body, document) -> {
            body.put("agentId", agentId);
            body.put("kind", HeldCapabilities.kindOf(agentId).wire());
            body.put("capabilities", document.value());
        });
    }

    private static HttpResponse<?> answer(PolicyOutcome<PolicyDocument> outcome,
            BiConsumer<Map<String, Object>, PolicyDocument> fill) {
        if (outcome instanceof PolicyOutcome.Decided<PolicyDocument> decided) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("revision", decided.value().revision());
            fill.accept(body, decided.value());
            return HttpResponse.ok(body);
        }
        return HttpResponse.status(HttpStatus.SERVICE_UNAVAILABLE).body(Map.of("error", "policy_unavailable"));
    }
}
