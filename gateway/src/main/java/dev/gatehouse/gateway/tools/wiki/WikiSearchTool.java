package dev.gatehouse.gateway.tools.wiki;

import dev.gatehouse.facade.wiki.WikiFacade;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolHandler;
import dev.gatehouse.gateway.tools.ToolOutcome;
import jakarta.inject.Singleton;
import java.util.Map;

/**
 * {@code wiki_search}: lines containing the query in pages under the resolved folder. Paths in results are
 * relative to the agent's subtree.
 */
@Singleton
public class WikiSearchTool implements ToolHandler {

    private final WikiFacade wiki;

    public WikiSearchTool(WikiFacade wiki) {
        this.wiki = wiki;
    }

    @Override
    public String name() {
        return "wiki_search";
    }

    /** @return {@code {hits: [{path, snippet}]}}, only from inside the subtree */
    @Override
    public ToolOutcome handle(ToolCall call) {
        String query = (String) call.arguments().get("query");
        return Scope.with(call, "path", (scope, path) -> Recovery.of(wiki.search(scope, path, query),
                hits -> Map.of("hits", hits.stream().map(hit -> Map.<String, Object>of(
                        "path", hit.path(), "snippet", hit.snippet())).toList())));
    }
}
