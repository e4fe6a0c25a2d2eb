package dev.gatehouse.gateway.tools.wiki;

import dev.gatehouse.facade.wiki.WikiFacade;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolHandler;
import dev.gatehouse.gateway.tools.ToolOutcome;
import jakarta.inject.Singleton;
import java.util.Map;

/** {@code wiki_read}: one page with its revision. Paths in results are relative to the agent's subtree. */
@Singleton
public class WikiReadTool implements ToolHandler {

    private final WikiFacade wiki;

    public WikiReadTool(WikiFacade wiki) {
        this.wiki = wiki;
    }

    @Override
    public String name() {
        return "wiki_read";
    }

    /** @return {@code {path, content, revision}} */
    @Override
    public ToolOutcome handle(ToolCall call) {
        return Scope.with(call, "path", (scope, path) -> Recovery.of(wiki.read(scope, path), page -> Map.of(
                "path", page.path(), "content", page.content(), "revision", page.revision())));
    }
}
