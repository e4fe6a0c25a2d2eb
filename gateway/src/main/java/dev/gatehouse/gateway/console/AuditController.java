package dev.gatehouse.gateway.console;

import dev.gatehouse.gateway.admin.AdminResult;
import dev.gatehouse.gateway.admin.AuditAdminController.AuditQueries;
import dev.gatehouse.gateway.admin.audit.AuditEntry;
import dev.gatehouse.gateway.admin.audit.AuditQuery;
import dev.gatehouse.gateway.admin.audit.ChangeAudit;
import io.micronaut.core.annotation.Nullable;
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
 * by agent, read with the same query as {@code GET /admin/audit}.
 */
@Controller("/console/audit")
@Produces(MediaType.TEXT_HTML)
public class AuditController {

    private final ChangeAudit audit;

    public AuditController(ChangeAudit audit) {
        this.audit = audit;
    }

    @Get
    public HttpResponse<?> entries(Authentication operator, @Nullable @QueryValue String subject,
            @Nullable @QueryValue String agent, @Nullable @QueryValue String before) {
        Map<String, String> filters = new LinkedHashMap<>();
        filters.put("subject", subject == null ? "" : subject);
        filters.put("agent", agent == null ? "" : agent);
        AdminResult<AuditQuery> query = AuditQueries.parse(subject, agent, before, null);
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
