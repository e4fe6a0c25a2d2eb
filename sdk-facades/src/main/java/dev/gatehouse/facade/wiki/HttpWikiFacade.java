package dev.gatehouse.facade.wiki;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.http.Fields;
import dev.gatehouse.facade.http.IdempotencyKey;
import dev.gatehouse.facade.http.ReplyMapper;
import dev.gatehouse.facade.http.Requests;
import dev.gatehouse.facade.http.ServiceClient;
import dev.gatehouse.facade.http.ServiceRequest;
import dev.gatehouse.facade.http.Undecodable;
import io.micronaut.http.HttpMethod;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link WikiFacade} over the Wiki HTTP contract (schemas/services/wiki.schema.json). Adds the agent id header, and
 * the caller's {@code Idempotency-Key} to every write, delete and move;
 * result paths outside the scope's root are dropped (a service bug must not widen what an agent sees) and the
 * rest are made relative to it.
 */
public final class HttpWikiFacade implements WikiFacade, AutoCloseable {

    private static final String BASE = "/wiki/v1";
    private static final String PAGE = "page";

    private final ServiceClient client;
    private final ReplyMapper mapper;

    public HttpWikiFacade(ServiceClient client, ReplyMapper mapper) {
        this.client = client;
        this.mapper = mapper;
    }

    @Override
    public FacadeResult<List<WikiEntry>> list(WikiScope scope, String path) {
        String uri = BASE + "/folders?path=" + Requests.query(path);
        return mapper.read(client.read(() -> as(scope, Requests.get(uri))), PAGE, body -> {
            List<WikiEntry> entries = new ArrayList<>();
            for (WikiEntry entry : Fields.list(body, "entries", HttpWikiFacade::entry)) {
                WikiPaths.relative(scope.root(), entry.path())
                        .ifPresent(rel -> entries.add(new WikiEntry(rel, entry.kind(), entry.revision())));
            }
            return entries;
        });
    }

    @Override
    public FacadeResult<WikiPage> read(WikiScope scope, String path) {
        String uri = BASE + "/pages?path=" + Requests.query(path);
        return mapper.read(client.read(() -> as(scope, Requests.get(uri))), PAGE, body ->
                new WikiPage(inside(scope, Fields.text(body, "path")), Fields.text(body, "content"),
                        Fields.text(body, "revision")));
    }

    @Override
    public FacadeResult<List<WikiHit>> search(WikiScope scope, String path, String query) {
        String uri = BASE + "/search?path=" + Requests.query(path) + "&query=" + Requests.query(query);
        return mapper.read(client.read(() -> as(scope, Requests.get(uri))), PAGE, body -> {
            List<WikiHit> hits = new ArrayList<>();
            for (JsonNode hit : Fields.list(body, "hits", node -> node)) {
                Optional<String> rel = WikiPaths.relative(scope.root(), Fields.text(hit, "path"));
                if (rel.isPresent()) {
                    hits.add(new WikiHit(rel.get(), Fields.text(hit, "snippet")));
                }
            }
            return hits;
        });
    }

    @Override
    public FacadeResult<WikiRevision> write(WikiScope scope, String path, String content,
            Optional<String> baseRevision, IdempotencyKey key) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("content", content);
        baseRevision.ifPresent(rev -> body.put("baseRevision", rev));
        String uri = BASE + "/pages?path=" + Requests.query(path);
        return mapper.mutation(client.mutate(as(scope, Requests.json(HttpMethod.PUT, uri, body)), key), PAGE,
                answer -> revision(scope, answer), Optional.of(key));
    }

    @Override
    public FacadeResult<WikiRevision> delete(WikiScope scope, String path, String baseRevision, IdempotencyKey key) {
        String uri = BASE + "/pages?path=" + Requests.query(path) + "&baseRevision=" + Requests.query(baseRevision);
        return mapper.mutation(client.mutate(as(scope, Requests.delete(uri)), key), PAGE,
                answer -> revision(scope, answer), Optional.of(key));
    }

    @Override
    public FacadeResult<WikiMove> move(WikiScope scope, String from, String to, String baseRevision,
            IdempotencyKey key) {
        String uri = BASE + "/moves?from=" + Requests.query(from) + "&to=" + Requests.query(to);
        return mapper.mutation(client.mutate(as(scope, Requests.json(HttpMethod.POST, uri,
                Map.of("baseRevision", baseRevision))), key), PAGE, answer -> new WikiMove(
                        inside(scope, Fields.text(answer, "from")), inside(scope, Fields.text(answer, "to")),
                        Fields.text(answer, "revision")), Optional.of(key));
    }

    private static WikiEntry entry(JsonNode node) throws Undecodable {
        String kind = Fields.text(node, "kind");
        if (!kind.equals("page") && !kind.equals("folder")) {
            throw new Undecodable("unknown entry kind");
        }
        return new WikiEntry(Fields.text(node, "path"), kind, Fields.optionalText(node, "revision"));
    }

    private static WikiRevision revision(WikiScope scope, JsonNode body) throws Undecodable {
        return new WikiRevision(inside(scope, Fields.text(body, "path")), Fields.text(body, "revision"));
    }

    private static String inside(WikiScope scope, String fullPath) throws Undecodable {
        return WikiPaths.relative(scope.root(), fullPath)
                .orElseThrow(() -> new Undecodable("answer names a page outside the agent's subtree"));
    }

    private static ServiceRequest as(WikiScope scope, ServiceRequest request) {
        return request.header(Requests.AGENT_HEADER, scope.agentId()).header(Requests.WIKI_ROOT_HEADER, scope.root());
    }

    @Override
    public void close() {
        client.close();
    }
}
