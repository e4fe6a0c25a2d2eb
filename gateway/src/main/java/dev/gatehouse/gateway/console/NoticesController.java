package dev.gatehouse.gateway.console;

import dev.gatehouse.gateway.admin.AdminResult;
import dev.gatehouse.gateway.admin.NoticeQueries;
import dev.gatehouse.gateway.admin.QueryParameters;
import dev.gatehouse.gateway.notice.NoticeProperties;
import dev.gatehouse.gateway.notice.NoticeQuery;
import dev.gatehouse.gateway.notice.NoticeState;
import dev.gatehouse.gateway.notice.NoticeStatus;
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
 * {@code GET /console/notices?state=&agent=&project=&limit=}: Project Work notices (docs/domain.md §9) as
 * {@code GET /admin/notices} and {@code GET /admin/notices/receipts} give them, one code path ({@link NoticeQueries},
 * {@link NoticeStatus}): whether delivery is on and for which Project client, each stream's state and its last error
 * (as {@code /health} reports them under {@code notices}), which replica holds the streams, the counts per state, the
 * notices (refused ones with their reason codes and decision), and the aggregates sent per thread, filtered per agent
 * and per project. A bad filter, an empty one included, is answered next to its field (400); the form is sent to
 * {@code GET /console/notices/find}, which goes on to this page with the fields filled in
 * ({@link ConsoleForms#filled}).
 */
@Controller("/console/notices")
@Produces(MediaType.TEXT_HTML)
public class NoticesController {

    /** The filters, in the form's order. */
    static final List<String> FIELDS = List.of("state", "agent", "project", "limit");

    private final NoticeQueries queries;
    private final NoticeStatus status;
    private final NoticeProperties properties;

    public NoticesController(NoticeQueries queries, NoticeStatus status, NoticeProperties properties) {
        this.queries = queries;
        this.status = status;
        this.properties = properties;
    }

    /** {@code GET /console/notices/find?...}: the form's target, on to the page with what was filled in. */
    @Get("/find")
    public HttpResponse<?> find(HttpRequest<?> request) {
        return ConsolePages.seeOther(ConsoleForms.filled("/console/notices", request, FIELDS));
    }

    @Get
    public HttpResponse<?> notices(Authentication operator, HttpRequest<?> request) {
        Map<String, String> parameters = QueryParameters.firstValues(request);
        Map<String, String> filters = new LinkedHashMap<>();
        FIELDS.forEach(field -> filters.put(field, parameters.getOrDefault(field, "").strip()));
        AdminResult<NoticeQuery> query = QueryParameters.strict(request, NoticeQueries.PARAMETERS,
                queries.parse(parameters));
        Map<String, String> problems = ConsoleForms.problems(query);
        Optional<NoticeQueries.Listing> listing = query instanceof AdminResult.Done<NoticeQuery> done
                ? Optional.of(queries.find(done.value())) : Optional.empty();
        Map<String, String> byState = new LinkedHashMap<>();
        for (NoticeState state : NoticeState.values()) {
            Map<String, String> link = new LinkedHashMap<>(filters);
            link.put("state", state.wire());
            byState.put(state.wire(), Links.notices(link));
        }
        Map<String, String> everyState = new LinkedHashMap<>(filters);
        everyState.remove("state");
        Map<String, Object> model = new LinkedHashMap<>();
        model.put("enabled", properties.isEnabled());
        model.put("clientId", properties.getClientId());
        model.put("streams", status.streams());
        model.put("lastErrors", status.streams().keySet().stream().flatMap(name -> status.lastError(name).stream()
                .map(error -> Map.entry(name, error))).toList());
        model.put("hold", status.hold());
        model.put("filters", filters);
        model.put("problems", problems);
        model.put("listing", listing);
        model.put("byState", byState);
        model.put("everyState", Links.notices(everyState));
        return HttpResponse.status(problems.isEmpty() ? HttpStatus.OK : HttpStatus.BAD_REQUEST)
                .body(ConsolePages.view("console/notices", ConsolePages.page("Notices", "notices", operator), model));
    }
}
