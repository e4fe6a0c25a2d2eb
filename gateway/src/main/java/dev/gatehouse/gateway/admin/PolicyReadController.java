package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.context.AgentDirectory;
import dev.gatehouse.gateway.context.AgentKey;
import dev.gatehouse.gateway.context.AgentSettings;
import dev.gatehouse.gateway.context.OutsideAgentIds;
import dev.gatehouse.gateway.context.TrustedContext.CallerKind;
import dev.gatehouse.gateway.policy.Entrypoint;
import dev.gatehouse.gateway.policy.EvaluatingPdp;
import dev.gatehouse.gateway.policy.PolicyDocument;
import dev.gatehouse.gateway.policy.api.CallerFacts;
import dev.gatehouse.gateway.policy.api.DecisionInput;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import dev.gatehouse.gateway.policy.api.ThreadShell;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.QueryValue;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The admin read API over the policy itself, for reviewers and operators (admin credential, like the rest of
 * {@code /admin}). Both answers are computed by the PDP that decides calls, from the bundle it serves, so they show
 * what is enforced rather than what a file says:
 * <ul>
 * <li>{@code GET /admin/access-table} → 200 {@code {revision, accessTable}}: the access table as served;</li>
 * <li>{@code GET /admin/agents/{agentId}/capabilities[?ceiling=]} → 200 {@code {agentId, kind, capabilities,
 * revision}}: the scopes the agent holds now, derived by the policy from its stored settings (docs/domain.md §4). A
 * thread agent holds them as a thread caller; an outside agent ({@code oa-…}) as an outside agent whose token
 * carries {@code ceiling}, passed to the policy as given (the ceiling comes with each token; without it, only the
 * scopes its settings grant, as for a ceiling that allows no change: the policy decides which ceilings do).</li>
 * </ul>
 * 503 {@code {error: "policy_unavailable"}} when the PDP cannot answer (no bundle, remote OPA down).
 */
@Controller("/admin")
public class PolicyReadController {

    private final EvaluatingPdp pdp;
    private final AgentDirectory directory;

    public PolicyReadController(EvaluatingPdp pdp, AgentDirectory directory) {
        this.pdp = pdp;
        this.directory = directory;
    }

    @Get("/access-table")
    public HttpResponse<?> accessTable() {
        CallerFacts nobody = new CallerFacts(CallerKind.THREAD.wire(), "admin", Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), AgentSettings.NONE.facts(), Optional.empty());
        return answer(pdp.document(Entrypoint.ACCESS_TABLE, DecisionInput.forListing(nobody)),
                (body, document) -> body.put("accessTable", document.value()));
    }

    @Get("/agents/{agentId}/capabilities")
    public HttpResponse<?> capabilities(String agentId, @Nullable @QueryValue String ceiling) {
        boolean outside = OutsideAgentIds.inNamespace(agentId);
        CallerKind kind = outside ? CallerKind.OUTSIDE_AGENT : CallerKind.THREAD;
        AgentSettings settings = directory.settings(new AgentKey(kind, agentId));
        CallerFacts facts = new CallerFacts(kind.wire(), agentId, Optional.empty(), Optional.empty(),
                outside ? Optional.empty() : Optional.of(ThreadShell.of(ThreadShell.Lookup.NOT_FOUND)),
                outside ? Optional.ofNullable(ceiling) : Optional.empty(), settings.facts(), Optional.empty());
        return answer(pdp.document(Entrypoint.HELD_CAPABILITIES, DecisionInput.forListing(facts)), (body, document) -> {
                    body.put("agentId", agentId);
                    body.put("kind", kind.wire());
                    body.put("capabilities", document.value());
                });
    }

    private static HttpResponse<?> answer(PolicyOutcome<PolicyDocument> outcome,
            java.util.function.BiConsumer<Map<String, Object>, PolicyDocument> fill) {
        if (outcome instanceof PolicyOutcome.Decided<PolicyDocument> decided) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("revision", decided.value().revision());
            fill.accept(body, decided.value());
            return HttpResponse.ok(body);
        }
        return HttpResponse.status(HttpStatus.SERVICE_UNAVAILABLE).body(Map.of("error", "policy_unavailable"));
    }
}
