package dev.gatehouse.gateway.console;

import dev.gatehouse.gateway.admin.AdminResult;
import dev.gatehouse.gateway.admin.AuditAdminController.AuditQueries;
import dev.gatehouse.gateway.admin.QueryParameters;
import dev.gatehouse.gateway.admin.audit.AuditEntry;
import dev.gatehouse.gateway.admin.audit.AuditQuery;
import dev.gatehouse.gateway.admin.audit.ChangeAudit;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.security.authentication.Authentication;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code GET /console/audit[?subject=&agent=&before=]}: the audited changes newest first, filtered by who made them and
 * by agent, read with the same query as {@code GET /admin/audit}; a parameter it does not take, or one given twice, is
 * 400 and said on the page.
 */
@Controller("/console/audit")
@Produces(MediaType.TEXT_HTML)
public class AuditController {

    /** The parameters the page takes: the API's, without {@code limit}. */
    private static final List<String> PARAMETERS = List.of("subject", "agent", "before");

    private final ChangeAudit audit;

    public AuditController(ChangeAudit audit) {
        this.audit = audit;
    }

    @Get
    public HttpResponse<?> entries(HttpRequest<?> request, Authentication operator, @Nullable @QueryValue String subject,
            @Nullable @QueryValue String agent, @Nullable @QueryValue String before) {
        Map<String, String> filters = new LinkedHashMap<>();
        filters.put("subject", subject == null ? "" : subject);
        filters.put("agent", agent == null ? "" : agent);
        // As GET /admin/audit reads it, but for the page size: a misspelt filter would widen the list silently.
        AdminResult<AuditQuery> query = QueryParameters.strict(request, PARAMETERS,
                AuditQueries.parse(subject, agent, before, null));
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
