package dev.gatehouse.gateway.console;

import dev.gatehouse.gateway.admin.AdminResult;
import dev.gatehouse.gateway.admin.AuditAdminController.AuditQueries;
import dev.gatehouse.gateway.admin.QueryParameters;
import dev.gatehouse.gateway.admin.audit.AuditEntry;
import dev.gatehouse.gateway.admin.audit.AuditQuery;
import dev.gatehouse.gateway.admin.audit.ChangeAudit;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Produces;
import io.micronaut.security.authentication.Authentication;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code GET /console/audit[?subject=&agent=&before=]}: the audited changes newest first, filtered by who made them and
 * by agent, read with the same query as {@code GET /admin/audit}; a parameter it does not take, one given twice or
 * empty, is 400 and said on the page. The form is sent to {@code GET /console/audit/find}, which goes on to this page
 * with the fields filled in ({@link ConsoleForms#filled}).
 */
@Controller("/console/audit")
@Produces(MediaType.TEXT_HTML)
public class AuditController {

    /** The parameters the page takes: the API's, without {@code limit}. */
    private static final List<String> PARAMETERS = List.of("subject", "agent", "before");
    /** The form's fields. */
    private static final List<String> FIELDS = List.of("subject", "agent");

    private final ChangeAudit audit;

    public AuditController(ChangeAudit audit) {
        this.audit = audit;
    }

    /** {@code GET /console/audit/find?...}: the form's target, on to the page with what was filled in. */
    @Get("/find")
    public HttpResponse<?> find(HttpRequest<?> request) {
        return ConsolePages.seeOther(ConsoleForms.filled("/console/audit", request, FIELDS));
    }

    @Get
    public HttpResponse<?> entries(HttpRequest<?> request, Authentication operator) {
        Map<String, String> parameters = QueryParameters.firstValues(request);
        Map<String, String> filters = new LinkedHashMap<>();
        filters.put("subject", parameters.getOrDefault("subject", ""));
        filters.put("agent", parameters.getOrDefault("agent", ""));
        // As GET /admin/audit reads it, but for the page size: a misspelt or empty filter would widen the list.
        AdminResult<AuditQuery> query = QueryParameters.strict(request, PARAMETERS,
                AuditQueries.parse(parameters.get("subject"), parameters.get("agent"), parameters.get("before"), null));
        List<AuditEntry> entries = query instanceof AdminResult.Done<AuditQuery> done ? audit.entries(done.value())
                : List.of();
        Optional<Long> next = entries.size() == AuditQuery.DEFAULT_LIMIT
                ? Optional.of(entries.get(entries.size() - 1).id()) : Optional.empty();
        return HttpResponse.status(query instanceof AdminResult.Done<?> ? HttpStatus.OK : HttpStatus.BAD_REQUEST)
                .body(ConsolePages.view("console/audit", ConsolePages.page("Audit", "audit", operator), Map.of(
                        "entries", entries, "filters", filters, "problems", ConsoleForms.problems(query),
                        "next", next)));
    }
}
