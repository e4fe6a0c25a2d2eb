package dev.gatehouse.local.wiki;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.local.http.ApiException;
import dev.gatehouse.local.http.ApiResponses;
import dev.gatehouse.local.http.RequestBodies;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Put;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Wiki HTTP contract (schemas/services/wiki.schema.json) over the {@link WikiStore}. Every request names its
 * agent in {@code Gatehouse-Agent-Id} (missing: 400) and may only touch the subtree named by
 * {@code Gatehouse-Wiki-Root} (default {@code agents/<agent>}) when that is a subtree the agent may use
 * ({@link WikiPath#within(String, String)}; otherwise 400 {@code path_escape}): the gateway already confines paths,
 * this is the second wall.
 */
@Controller("/wiki/v1")
@ExecuteOn(TaskExecutors.BLOCKING)
public class WikiController {

    private static final String AGENT = "Gatehouse-Agent-Id";
    private static final String ROOT = "Gatehouse-Wiki-Root";

    private final WikiStore store;

    public WikiController(WikiStore store) {
        this.store = store;
    }

    /** {@code GET /wiki/v1/folders?path=} → {@code FolderListing}. */
    @Get("/folders")
    public HttpResponse<byte[]> list(@Header(AGENT) Optional<String> agentId, @Header(ROOT) Optional<String> root,
            @QueryValue String path) {
        WikiPath folder = confine(path, agentId, root);
        List<Map<String, Object>> entries = new ArrayList<>();
        for (WikiStore.Entry entry : store.list(folder)) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("path", entry.path());
            item.put("kind", entry.kind());
            entry.revision().ifPresent(rev -> item.put("revision", rev));
            entries.add(item);
        }
        return ApiResponses.ok(Map.of("path", folder.wire(), "entries", entries));
    }

    /** {@code GET /wiki/v1/pages?path=} → {@code Page}. */
    @Get("/pages")
    public HttpResponse<byte[]> read(@Header(AGENT) Optional<String> agentId, @Header(ROOT) Optional<String> root,
            @QueryValue String path) {
        WikiStore.Page page = store.read(confine(path, agentId, root));
        return ApiResponses.ok(Map.of("path", page.path(), "content", page.content(), "revision", page.revision()));
    }

    /** {@code GET /wiki/v1/search?path=&query=} → {@code SearchResult}. */
    @Get("/search")
    public HttpResponse<byte[]> search(@Header(AGENT) Optional<String> agentId, @Header(ROOT) Optional<String> root,
            @QueryValue String path, @QueryValue String query) {
        List<Map<String, Object>> hits = new ArrayList<>();
        for (WikiStore.Hit hit : store.search(confine(path, agentId, root), query)) {
            hits.add(Map.of("path", hit.path(), "snippet", hit.snippet()));
        }
        return ApiResponses.ok(Map.of("hits", hits));
    }

    /** {@code PUT /wiki/v1/pages?path=} with {@code WriteRequest} → {@code PageRevision}. */
    @Put("/pages")
    @Consumes(MediaType.APPLICATION_JSON)
    public HttpResponse<byte[]> write(@Header(AGENT) Optional<String> agentId, @Header(ROOT) Optional<String> root,
            @QueryValue String path, @Body byte[] body) {
        WikiPath page = confine(path, agentId, root);
        JsonNode request = RequestBodies.object(body);
        Optional<String> base = RequestBodies.optionalText(request, "baseRevision");
        String revision = store.write(page, RequestBodies.text(request, "content"), base);
        return ApiResponses.ok(Map.of("path", page.wire(), "revision", revision));
    }

    /** {@code DELETE /wiki/v1/pages?path=&baseRevision=} → {@code PageRevision} of the deleted revision. */
    @Delete("/pages")
    public HttpResponse<byte[]> delete(@Header(AGENT) Optional<String> agentId, @Header(ROOT) Optional<String> root,
            @QueryValue String path, @QueryValue String baseRevision) {
        WikiPath page = confine(path, agentId, root);
        return ApiResponses.ok(Map.of("path", page.wire(), "revision", store.delete(page, baseRevision)));
    }

    /**
     * {@code POST /wiki/v1/moves?from=&to=} with {@code MoveRequest} → {@code PageMove}; both paths must lie in the
     * subtree the request names for its agent.
     */
    @Post("/moves")
    @Consumes(MediaType.APPLICATION_JSON)
    public HttpResponse<byte[]> move(@Header(AGENT) Optional<String> agentId, @Header(ROOT) Optional<String> root,
            @QueryValue String from, @QueryValue String to, @Body byte[] body) {
        WikiPath source = confine(from, agentId, root);
        WikiPath target = confine(to, agentId, root);
        String base = RequestBodies.text(RequestBodies.object(body), "baseRevision");
        WikiStore.Moved moved = store.move(source, target, base);
        return ApiResponses.ok(Map.of("from", moved.from(), "to", moved.to(), "revision", moved.revision()));
    }

    /** {@code path}, parsed and confined to the subtree the request names for its agent. */
    private static WikiPath confine(String path, Optional<String> agentId, Optional<String> root) {
        String agent = agent(agentId);
        return WikiPath.parse(path).within(agent, root.orElse(WikiPath.THREAD_AGENTS + "/" + agent));
    }

    private static String agent(Optional<String> agentId) {
        return agentId.filter(id -> !id.isBlank())
                .orElseThrow(() -> ApiException.badRequest("agent_required", "Gatehouse-Agent-Id missing"));
    }
}
