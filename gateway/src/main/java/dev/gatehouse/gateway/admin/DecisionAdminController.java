package dev.gatehouse.gateway.admin;

import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.decisions.DecisionIndex;
import dev.gatehouse.gateway.decisions.DecisionIndexConfiguration;
import dev.gatehouse.gateway.decisions.DecisionPage;
import dev.gatehouse.gateway.decisions.DecisionSummary;
import dev.gatehouse.gateway.decisions.StoredDecision;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import dev.gatehouse.gateway.decisions.DecisionQuery;
import io.micronaut.http.MediaType;
import io.micronaut.http.server.types.files.StreamedFile;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Enumeration;
import java.util.Optional;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The decisions of every replica, from the decision index (docs/design.md, "Finding decisions"), behind
 * {@link AdminCredentialFilter}.
 * <ul>
 * <li>{@code GET /admin/decisions?from=&to=&agent=&callerKind=&tool=&outcome=&reason=&revision=&method=&limit=&cursor=}
 * (parameters: {@link DecisionQueries}): 200 {@code {decisions: [summary], next?, matched, scanned, outcomes:
 * {outcome: n}, reasons: {code: n}, note?, stoppedAt?}}, newest first. A summary is {@code {decisionId, at, replica,
 * method, tool?, callerKind, agent, thread?, outcome, reasons[], revision?, keyId?}}. The counts cover the whole
 * search. When the search looked at {@code scan-limit} decisions of the range without reaching its start, it answers
 * what it found with {@code stoppedAt} (the oldest time it looked at) and {@code note}, "narrow the range"; {@code
 * next} goes on from there.</li>
 * <li>{@code GET /admin/decisions/{decisionId}}: 200 {@code {decision: summary, record, valuesMissing}}, the record
 * as the decision log wrote it (schemas/decision-log-record.json; redacted values stay redacted, long values are
 * their stand-ins); 404 when the index holds no such decision (never indexed, or past its retention).</li>
 * </ul>
 * Bad parameters: 400 {@code {error: "invalid_fields", invalid[], messages[]}}, never a 500. The store down: 503.
 */
@Controller("/admin/decisions")
public class DecisionAdminController {

    /** JSON Lines. */
    public static final String EXPORT_TYPE = "application/x-ndjson";

    /** The note a search that reached its scan bound carries. */
    public static final String NARROW = "This search looked at the most decisions one search may look at and stopped"
            + " before the start of its range; narrow the range (or a filter such as agent) to see all at once.";

    private final DecisionIndex index;
    private final DecisionQueries queries;
    private final DecisionIndexConfiguration configuration;

    public DecisionAdminController(DecisionIndex index, DecisionQueries queries,
            DecisionIndexConfiguration configuration) {
        this.index = index;
        this.queries = queries;
        this.configuration = configuration;
    }

    @Get
    public HttpResponse<?> search(HttpRequest<?> request) {
        return AdminResponses.answer(query(request), query -> {
            DecisionPage page = index.search(query, configuration.getScanLimit());
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("decisions", page.decisions().stream().map(DecisionAdminController::summary).toList());
            page.next().ifPresent(next -> body.put("next", next.token()));
            body.put("matched", page.matched());
            body.put("scanned", page.scanned());
            Map<String, Long> outcomes = new LinkedHashMap<>();
            page.outcomes().forEach((outcome, n) -> outcomes.put(outcome.wire(), n));
            body.put("outcomes", outcomes);
            body.put("reasons", page.reasons());
            page.stoppedAt().ifPresent(at -> {
                body.put("stoppedAt", at.toString());
                body.put("note", NARROW);
            });
            return HttpResponse.ok(body);
        });
    }

    /** The request's search, refused also for a parameter it does not take or one given twice. */
    private AdminResult<DecisionQuery> query(HttpRequest<?> request) {
        return QueryParameters.strict(request, DecisionQueries.PARAMETERS, queries.parse(QueryParameters.firstValues(request)));
    }

    /**
     * {@code GET /admin/decisions/export?...} (the search's parameters; {@code limit} is the records per page read):
     * 200 {@code application/x-ndjson}, every record of the whole search newest first, one log line each, exactly as
     * the decision log wrote it (schemas/decision-log-record.json), streamed a page at a time.
     */
    @Get("/export")
    public HttpResponse<?> export(HttpRequest<?> request) {
        return AdminResponses.answer(query(request),
                query -> HttpResponse.ok(export(index, query, configuration.getScanLimit()))
                        .header("Cache-Control", "no-store")); // audit records with their arguments
    }

    /**
     * Every record of the whole search as JSON Lines, read a page at a time as the client reads (the next page's
     * query runs when the previous page was sent). A store failure part-way ends the stream early.
     */
    public static StreamedFile export(DecisionIndex index, DecisionQuery query, int scanLimit) {
        Enumeration<InputStream> pages = new Enumeration<>() {
            private Optional<DecisionQuery> next = Optional.of(query);

            @Override
            public boolean hasMoreElements() {
                return next.isPresent();
            }

            @Override
            public InputStream nextElement() {
                DecisionIndex.RecordPage page = index.records(next.orElseThrow(), scanLimit);
                next = page.next().map(cursor -> query.after(cursor, query.limit()));
                StringBuilder lines = new StringBuilder();
                page.records().forEach(line -> lines.append(line).append('\n'));
                return new ByteArrayInputStream(lines.toString().getBytes(StandardCharsets.UTF_8));
            }
        };
        return new StreamedFile(new SequenceInputStream(pages), MediaType.of(EXPORT_TYPE)).attach("decisions.jsonl");
    }

    @Get("/{decisionId}")
    public HttpResponse<?> one(HttpRequest<?> request, @PathVariable String decisionId) {
        return AdminResponses.answer(QueryParameters.strict(request, List.of(), DecisionQueries.decisionId(decisionId)),
                id -> index.find(id)
                .<HttpResponse<?>>map(found -> HttpResponse.ok(one(found))).orElseGet(AdminResponses::notFound));
    }

    private static Map<String, Object> one(StoredDecision decision) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("decision", summary(decision.summary()));
        try {
            body.put("record", PolicyJson.MAPPER.readTree(decision.record()));
        } catch (IOException e) {
            body.put("record", decision.record()); // written by our own log, so never expected; shown as it is
        }
        body.put("valuesMissing", decision.valuesMissing());
        return body;
    }


    /** A summary as the API and the export list it. */
    static Map<String, Object> summary(DecisionSummary s) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("decisionId", s.decisionId().toString());
        view.put("at", s.decidedAt().toString());
        view.put("replica", s.replica());
        view.put("method", s.method());
        s.tool().ifPresent(tool -> view.put("tool", tool));
        view.put("callerKind", s.callerKind());
        view.put("agent", s.agentId());
        s.threadId().ifPresent(thread -> view.put("thread", thread));
        view.put("outcome", s.outcome().wire());
        view.put("reasons", s.reasons());
        s.revision().ifPresent(revision -> view.put("revision", revision));
        s.keyId().ifPresent(key -> view.put("keyId", key));
        return view;
    }
}
