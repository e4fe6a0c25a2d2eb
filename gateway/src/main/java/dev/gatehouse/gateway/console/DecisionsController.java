package dev.gatehouse.gateway.console;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.admin.AdminResult;
import dev.gatehouse.gateway.admin.DecisionAdminController;
import dev.gatehouse.gateway.admin.DecisionQueries;
import dev.gatehouse.gateway.admin.QueryParameters;
import dev.gatehouse.gateway.decisions.DecisionIndex;
import dev.gatehouse.gateway.decisions.DecisionIndexConfiguration;
import dev.gatehouse.gateway.decisions.DecisionPage;
import dev.gatehouse.gateway.decisions.DecisionQuery;
import dev.gatehouse.gateway.decisions.Explain;
import dev.gatehouse.gateway.decisions.Replay;
import dev.gatehouse.gateway.decisions.StoredDecision;
import dev.gatehouse.gateway.notice.NoticeProperties;
import dev.gatehouse.gateway.policy.api.KeptRevision;
import dev.gatehouse.gateway.policy.api.PolicyContents;
import dev.gatehouse.gateway.policy.api.RevisionHistory;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Produces;
import io.micronaut.security.authentication.Authentication;
import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The console's decisions pages, on the same index and the same parameter reading as {@code /admin/decisions}:
 * <ul>
 * <li>{@code GET /console/decisions?...}: the search form, the decisions newest first, paged, the counts per outcome
 * and per reason, and the scan bound's note; a {@code decisionId} goes straight to that decision's page;</li>
 * <li>{@code GET /console/decisions/{decisionId}[?replay=true][?explain=true]}: one decision: caller, tool, the
 * arguments as logged (shown as text, redacted values redacted), the reasons with their rule family and the sentence
 * of the rule's METADATA, obligations (none shown when there are none), revision and key; with {@code replay}, the
 * answer of every revision this replica keeps to its input (the replica named, as each keeps its own), the one that
 * decided marked; with {@code explain}, the {@code opa eval --explain=fails} trace on the revision that decided
 * ({@link Explain}).</li>
 * </ul>
 * A parameter a page does not take, one given twice or empty, or a value it does not know is 400, said on the page; the
 * search form is sent to {@code GET /console/decisions/find}, which goes on to the search with the fields filled in
 * ({@link ConsoleForms#filled}).
 */
@Controller("/console/decisions")
@Produces(MediaType.TEXT_HTML)
public class DecisionsController {

    /** The search's fields, in the form's order. */
    static final List<String> FIELDS = List.of("from", "to", "agent", "callerKind", "tool", "outcome", "reason",
            "revision");
    /** Every parameter the pages take: the API's search's and {@code decisionId}; any other is a problem shown. */
    static final List<String> PARAMETERS = Stream.concat(Stream.of("decisionId"),
            DecisionQueries.PARAMETERS.stream()).toList();
    /** The search form's fields: the search's and {@code decisionId}. */
    private static final List<String> FORM = Stream.concat(Stream.of("decisionId"), FIELDS.stream()).toList();

    private final DecisionIndex index;
    private final DecisionQueries queries;
    private final DecisionIndexConfiguration configuration;
    private final RevisionHistory revisions;
    private final Replay replay;
    private final Explain explain;
    private final NoticeProperties replica;

    public DecisionsController(DecisionIndex index, DecisionQueries queries, DecisionIndexConfiguration configuration,
            RevisionHistory revisions, Replay replay, Explain explain, NoticeProperties replica) {
        this.index = index;
        this.queries = queries;
        this.configuration = configuration;
        this.revisions = revisions;
        this.replay = replay;
        this.explain = explain;
        this.replica = replica;
    }

    @Get
    public HttpResponse<?> search(Authentication operator, HttpRequest<?> request) {
        Map<String, String> parameters = QueryParameters.firstValues(request);
        String decisionId = parameters.getOrDefault("decisionId", "").strip();
        Map<String, String> problems = new LinkedHashMap<>();
        if (parameters.containsKey("decisionId") && QueryParameters.blank(decisionId)) {
            problems.put("decisionId", QueryParameters.EMPTY); // as the search refuses an empty filter
        } else if (!decisionId.isEmpty()) {
            AdminResult<UUID> id = DecisionQueries.decisionId(decisionId);
            if (id instanceof AdminResult.Done<UUID> done) {
                return HttpResponse.seeOther(URI.create("/console/decisions/" + done.value()));
            }
            problems.putAll(ConsoleForms.problems(id));
        }
        Map<String, String> filters = new LinkedHashMap<>();
        FIELDS.forEach(field -> filters.put(field, parameters.getOrDefault(field, "")));
        filters.put("decisionId", decisionId);
        Map<String, String> searched = new LinkedHashMap<>(parameters);
        searched.remove("decisionId");
        AdminResult<DecisionQuery> query = QueryParameters.strict(request, PARAMETERS, queries.parse(searched));
        problems.putAll(ConsoleForms.problems(query));
        Optional<DecisionPage> page = query instanceof AdminResult.Done<DecisionQuery> done && problems.isEmpty()
                ? Optional.of(index.search(done.value(), configuration.getScanLimit())) : Optional.empty();
        Map<String, Object> model = new LinkedHashMap<>();
        model.put("result", page);
        model.put("filters", filters);
        model.put("problems", problems);
        model.put("next", page.flatMap(DecisionPage::next).map(cursor -> Links.decisions(filters, cursor.token())));
        model.put("export", Links.decisionsExport(filters));
        model.put("narrow", DecisionAdminController.NARROW);
        return HttpResponse.status(problems.isEmpty() ? HttpStatus.OK : HttpStatus.BAD_REQUEST)
                .body(ConsolePages.view("console/decisions", ConsolePages.page("Decisions", "decisions", operator),
                        model));
    }

    /** {@code GET /console/decisions/find?...}: the search form's target, on to the search with what was filled in. */
    @Get("/find")
    public HttpResponse<?> find(HttpRequest<?> request) {
        return ConsolePages.seeOther(ConsoleForms.filled("/console/decisions", request, FORM));
    }

    /** {@code GET /console/decisions/export?...}: the search's records as JSON Lines, as the admin API exports them. */
    @Get(value = "/export")
    @Produces({DecisionAdminController.EXPORT_TYPE, MediaType.TEXT_HTML})
    public HttpResponse<?> export(Authentication operator, HttpRequest<?> request) {
        Map<String, String> parameters = new LinkedHashMap<>(QueryParameters.firstValues(request));
        parameters.remove("decisionId"); // taken, as by the search page, which goes to that decision instead
        AdminResult<DecisionQuery> query = QueryParameters.strict(request, PARAMETERS, queries.parse(parameters));
        if (query instanceof AdminResult.Done<DecisionQuery> done) {
            return HttpResponse.ok(DecisionAdminController.export(index, done.value(), configuration.getScanLimit()));
        }
        return search(operator, request);
    }

    @Get("/{decisionId}")
    public HttpResponse<?> one(Authentication operator, HttpRequest<?> request, @PathVariable String decisionId) {
        PageParameters parameters = PageParameters.of(request, "replay", "explain");
        boolean replayed = parameters.oneOf("replay", List.of("true")).isPresent();
        boolean explained = parameters.oneOf("explain", List.of("true")).isPresent();
        if (!parameters.ok()) {
            return parameters.refused(ConsolePages.page("Decision", "decisions", operator),
                    Links.decision(decisionId));
        }
        AdminResult<UUID> id = DecisionQueries.decisionId(decisionId);
        Optional<StoredDecision> found = id instanceof AdminResult.Done<UUID> done ? index.find(done.value())
                : Optional.empty();
        if (found.isEmpty()) {
            return HttpResponse.notFound(ConsolePages.view("console/not-found",
                    ConsolePages.page("Decision not found", "decisions", operator), Map.of("message",
                            "No decision with this id is in the index (it may be older than its retention).")));
        }
        StoredDecision decision = found.get();
        JsonNode record;
        try {
            record = PolicyJson.MAPPER.readTree(decision.record());
        } catch (IOException e) {
            record = PolicyJson.MAPPER.missingNode();
        }
        Map<String, Object> model = new LinkedHashMap<>();
        model.put("decision", decision.summary());
        model.put("reasons", DecisionView.reasons(record, catalogue(decision)));
        model.put("arguments", DecisionView.pretty(record.path("input").path("arguments")));
        model.put("obligations", DecisionView.obligations(record));
        model.put("valuesMissing", decision.valuesMissing());
        model.put("replay", replayed ? Optional.of(this.replay.replay(decision)) : Optional.empty());
        model.put("explanation", explained ? Optional.of(this.explain.explain(decision)) : Optional.empty());
        model.put("servingRevision", revisions.kept().stream().findFirst().map(KeptRevision::revision).orElse(""));
        model.put("replica", replica.getReplicaName());
        return HttpResponse.ok(ConsolePages.view("console/decision", ConsolePages.page("Decision "
                + decision.summary().decisionId(), "decisions", operator), model));
    }

    /** The reason catalogue of the revision that decided when it is kept, else the serving revision's. */
    private Map<String, PolicyContents.ReasonEntry> catalogue(StoredDecision decision) {
        Optional<KeptRevision> decided = decision.summary().revision().flatMap(revisions::kept);
        return decided.or(() -> revisions.kept().stream().findFirst()).map(k -> k.contents().reasons())
                .orElse(Map.of());
    }
}
