package dev.gatehouse.gateway.tools.wiki;

import dev.gatehouse.facade.wiki.WikiFacade;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolHandler;
import dev.gatehouse.gateway.tools.ToolOutcome;
import jakarta.inject.Singleton;
import java.util.Map;

/**
 * {@code wiki_delete}: deletes the resolved page if it is still at baseRevision. Paths in results are relative to
 * the agent's subtree.
 */
@Singleton
public class WikiDeleteTool implements ToolHandler {

    private final WikiFacade wiki;

    public WikiDeleteTool(WikiFacade wiki) {
        this.wiki = wiki;
    }

    @Override
    public String name() {
        return "wiki_delete";
    }

    /** @return {@code {path, revision}} of the deleted revision */
    @Override
    public ToolOutcome handle(ToolCall call) {
        String base = (String) call.arguments().get("baseRevision");
        return Scope.with(call, "path", (scope, path) -> Recovery.of(
                wiki.delete(scope, path, base, call.idempotencyKey()),
                deleted -> Map.of("path", deleted.path(), "revision", deleted.revision())));
    }
}
