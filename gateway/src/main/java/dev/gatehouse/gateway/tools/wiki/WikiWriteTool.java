package dev.gatehouse.gateway.tools.wiki;

import dev.gatehouse.facade.wiki.WikiFacade;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolHandler;
import dev.gatehouse.gateway.tools.ToolOutcome;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.Optional;

/**
 * {@code wiki_write}: creates or replaces the resolved page atomically; a stale or missing baseRevision is a
 * conflict. Paths in results are relative to the agent's subtree.
 */
@Singleton
public class WikiWriteTool implements ToolHandler {

    private final WikiFacade wiki;

    public WikiWriteTool(WikiFacade wiki) {
        this.wiki = wiki;
    }

    @Override
    public String name() {
        return "wiki_write";
    }

    /** @return {@code {path, revision}} of the new revision */
    @Override
    public ToolOutcome handle(ToolCall call) {
        String content = (String) call.arguments().get("content");
        Optional<String> base = Optional.ofNullable((String) call.arguments().get("baseRevision"));
        return Scope.with(call, "path", (scope, path) -> Recovery.of(wiki.write(scope, path, content, base,
                call.idempotencyKey()),
                written -> Map.of("path", written.path(), "revision", written.revision())));
    }
}
