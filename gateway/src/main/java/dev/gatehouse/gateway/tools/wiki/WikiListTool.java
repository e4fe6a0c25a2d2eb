package dev.gatehouse.gateway.tools.wiki;

import dev.gatehouse.facade.wiki.WikiFacade;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolHandler;
import dev.gatehouse.gateway.tools.ToolOutcome;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.LinkedHashMap;

/**
 * {@code wiki_list}: pages and folders directly under the resolved folder. Paths in results are relative to the
 * agent's subtree.
 */
@Singleton
public class WikiListTool implements ToolHandler {

    private final WikiFacade wiki;

    public WikiListTool(WikiFacade wiki) {
        this.wiki = wiki;
    }

    @Override
    public String name() {
        return "wiki_list";
    }

    /** @return {@code {entries: [{path, kind, revision?}]}} with kind {@code page|folder} */
    @Override
    public ToolOutcome handle(ToolCall call) {
        return Scope.with(call, "path", (scope, path) -> Recovery.of(wiki.list(scope, path),
                entries -> Map.of("entries", entries.stream().map(entry -> {
                    Map<String, Object> out = new LinkedHashMap<>();
                    out.put("path", entry.path());
                    out.put("kind", entry.kind());
                    entry.revision().ifPresent(revision -> out.put("revision", revision));
                    return out;
                }).toList())));
    }
}
