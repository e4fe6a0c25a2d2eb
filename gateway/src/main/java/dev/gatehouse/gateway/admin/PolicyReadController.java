package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.policy.api.PolicyDecisionPoint;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.QueryValue;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The admin read API over the policy itself, for reviewers and operators (admin credential, like the rest of
 * {@code /admin}). Both answers come from the revision the PDP serves, so they show what is enforced rather than
 * what a file says:
 * <ul>
 * <li>{@code GET /admin/access-table} → 200 {@code {revision, accessTable}}: the access table the serving revision
 * holds, which is the one the gate enforces; it takes no query parameter (400 {@code invalid_fields} naming
 * one);</li>
 * <li>{@code GET /admin/agents/{agentId}/capabilities[?ceiling=]} → 200 {@code {agentId, kind, capabilities,
 * revision}}: the scopes the agent holds now ({@link HeldCapabilities}, which the console shows too), derived by the
 * policy from its stored settings (docs/domain.md §4). A
 * thread agent holds them as a thread caller; an outside agent ({@code oa-…}) as an outside agent whose token
 * carries {@code ceiling}, passed to the policy as given (the ceiling comes with each token; without it, only the
 * scopes its settings grant, as for a ceiling that allows no change: the policy decides which ceilings do). A
 * {@code ceiling} the serving revision does not name, given twice, or another parameter is 400 {@code invalid_fields}
 * naming it.</li>
 * </ul>
 * 503 {@code {error: "policy_unavailable"}} when the PDP cannot answer (no bundle, remote OPA down).
 */
@Controller("/admin")
public class PolicyReadController {

    private final PolicyDecisionPoint pdp;
    private final HeldCapabilities held;

    public PolicyReadController(PolicyDecisionPoint pdp, HeldCapabilities held) {
        this.pdp = pdp;
        this.held = held;
    }

    @Get("/access-table")
    public HttpResponse<?> accessTable(HttpRequest<?> request) {
        return AdminResponses.answer(QueryParameters.strict(request, List.of(), new AdminResult.Done<Void>(null)),
                none -> pdp.serving().<HttpResponse<?>>map(served -> ok(served.revision(), Map.of("accessTable",
                        served.contents().accessTable()))).orElseGet(PolicyReadController::unavailable));
    }

    @Get("/agents/{agentId}/capabilities")
    public HttpResponse<?> capabilities(HttpRequest<?> request, String agentId,
            @Nullable @QueryValue String ceiling) {
        if (QueryParameters.strict(request, List.of("ceiling"), "lookup", new AdminResult.Done<>(agentId))
                instanceof AdminResult.Refused<String> refused) { // two ceilings would leave which one counts a guess
            return AdminResponses.refusal(refused.problems());
        }
        List<String> known = held.ceilings();
        if (ceiling != null && !known.isEmpty() && !known.contains(ceiling)) {
            // A misspelt ceiling would otherwise be answered as a token carrying it: with less, and no word why.
            return AdminResponses.refusal(List.of(FieldProblem.invalid("ceiling",
                    "Not a ceiling of the served revision; it knows " + String.join(", ", known) + ".")));
        }
        PolicyOutcome<HeldCapabilities.Held> outcome = held.of(agentId, Optional.ofNullable(ceiling));
        if (outcome instanceof PolicyOutcome.Decided<HeldCapabilities.Held> decided) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("agentId", agentId);
            body.put("kind", HeldCapabilities.kindOf(agentId).wire());
            body.put("capabilities", decided.value().scopes());
            return ok(decided.value().revision(), body);
        }
        return unavailable();
    }

    private static HttpResponse<?> ok(String revision, Map<String, Object> members) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("revision", revision);
        body.putAll(members);
        return HttpResponse.ok(body);
    }

    private static HttpResponse<?> unavailable() {
        return HttpResponse.status(HttpStatus.SERVICE_UNAVAILABLE).body(Map.of("error", "policy_unavailable"));
    }
}
