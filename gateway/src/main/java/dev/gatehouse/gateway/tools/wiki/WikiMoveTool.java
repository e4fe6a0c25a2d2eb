package dev.gatehouse.gateway.tools.wiki;

import dev.gatehouse.facade.wiki.WikiFacade;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolHandler;
import dev.gatehouse.gateway.tools.ToolOutcome;
import jakarta.inject.Singleton;
import java.util.Map;

/**
 * {@code wiki_move}: moves the resolved page {@code from} to the resolved path {@code to} atomically if it is still
 * at baseRevision; a stale revision or an existing page at {@code to} is a conflict. Paths in results are relative
 * to the agent's subtree.
 */
@Singleton
public class WikiMoveTool implements ToolHandler {

    private final WikiFacade wiki;

    public WikiMoveTool(WikiFacade wiki) {
        this.wiki = wiki;
    }

    @Override
    public String name() {
        return "wiki_move";
    }

    /** @return {@code {from, to, revision}}, the revision of the page at its new path */
    @Override
    public ToolOutcome handle(ToolCall call) {
        String base = (String) call.arguments().get("baseRevision");
        return Scope.with(call, "from", (scope, from) -> Scope.with(call, "to", (ignored, to) ->
                Recovery.of(wiki.move(scope, from, to, base, call.idempotencyKey()), moved -> Map.of(
                        "from", moved.from(), "to", moved.to(), "revision", moved.revision()))));
    }
}
