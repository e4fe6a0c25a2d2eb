package dev.gatehouse.gateway.admin;

import dev.gatehouse.gateway.admin.audit.AuditEntry;
import dev.gatehouse.gateway.admin.audit.AuditQuery;
import dev.gatehouse.gateway.admin.audit.ChangeAudit;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * {@code GET /admin/audit[?subject=&agent=&before=&limit=]}, behind {@link AdminCredentialFilter}: the audited admin
 * changes, newest first, made through the console or the admin API alike. 200 {@code {entries: [{id, at, actorKind
 * (operator|admin_api), actor, action, target, agentId?, beforeVersion?, afterVersion?, detail}], next?}}:
 * {@code subject} keeps the changes of one actor (an operator's OIDC subject, or {@code admin-credential}),
 * {@code agent} those concerning one agent id; {@code limit} is 1 to {@value AuditQuery#MAX_LIMIT} (default
 * {@value AuditQuery#DEFAULT_LIMIT}); {@code next} is the {@code before} value of the next page. 400 {@code {error:
 * "invalid_fields", invalid[]}} for a limit or cursor that is not such a number, a parameter given empty (never read as
 * no filter), one it does not take, or one given twice. No entry ever holds a secret.
 */
@Controller("/admin/audit")
public class AuditAdminController {

    private final ChangeAudit audit;

    public AuditAdminController(ChangeAudit audit) {
        this.audit = audit;
    }

    @Get
    public HttpResponse<?> entries(HttpRequest<?> request) {
        Map<String, String> parameters = QueryParameters.firstValues(request);
        AdminResult<AuditQuery> query = QueryParameters.strict(request, AuditQueries.PARAMETERS,
                AuditQueries.parse(parameters.get("subject"), parameters.get("agent"), parameters.get("before"),
                        parameters.get("limit")));
        return AdminResponses.answer(query, parsed -> {
            List<AuditEntry> entries = audit.entries(parsed);
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("entries", entries.stream().map(AuditAdminController::view).toList());
            if (entries.size() == parsed.limit()) {
                body.put("next", entries.get(entries.size() - 1).id());
            }
            return HttpResponse.ok(body);
        });
    }

    private static Map<String, Object> view(AuditEntry entry) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", entry.id());
        view.put("at", entry.at().toString());
        view.put("actorKind", entry.actor().kind().wire());
        view.put("actor", entry.actor().subject());
        view.put("action", entry.change().action());
        view.put("target", entry.change().target());
        entry.change().agentId().ifPresent(id -> view.put("agentId", id));
        entry.change().beforeVersion().ifPresent(v -> view.put("beforeVersion", v));
        entry.change().afterVersion().ifPresent(v -> view.put("afterVersion", v));
        view.put("detail", entry.change().detail());
        return view;
    }

    /** The one reading of the audit's filters, for this API and the console's audit page. */
    public static final class AuditQueries {

        /** Every parameter the audit takes; the admin API refuses any other name, and a name given twice. */
        public static final List<String> PARAMETERS = List.of("subject", "agent", "before", "limit");

        private AuditQueries() {
        }

        /**
         * Each parameter null when absent, which is no filter; one given empty or blank is refused
         * ({@link QueryParameters#given}), and so is a limit or cursor that is not a number in range.
         */
        public static AdminResult<AuditQuery> parse(@Nullable String subject, @Nullable String agent,
                @Nullable String before, @Nullable String limit) {
            List<FieldProblem> problems = new ArrayList<>();
            Optional<String> bySubject = QueryParameters.given("subject", subject, problems);
            Optional<String> byAgent = QueryParameters.given("agent", agent, problems);
            OptionalLong cursor = OptionalLong.empty();
            Optional<String> beforeText = QueryParameters.given("before", before, problems);
            if (beforeText.isPresent()) {
                if (beforeText.get().matches("[0-9]{1,18}")) {
                    cursor = OptionalLong.of(Long.parseLong(beforeText.get()));
                } else {
                    problems.add(FieldProblem.invalid("before", "A cursor is an entry id."));
                }
            }
            int size = QueryParameters.limit(limit, AuditQuery.DEFAULT_LIMIT, AuditQuery.MAX_LIMIT, problems);
            if (!problems.isEmpty()) {
                return new AdminResult.Refused<>(problems);
            }
            return new AdminResult.Done<>(new AuditQuery(bySubject, byAgent, cursor, size));
        }
    }
}
