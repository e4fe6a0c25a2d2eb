package dev.gatehouse.gateway.context;

import java.util.ArrayList;
import java.util.List;

/**
 * Derives the capability scopes of one call from facts (DOMAIN.md §4). This is fact gathering, not a decision:
 * the policy decides which scope a tool needs and whether a kind of caller may ever hold it.
 */
public final class Capabilities {

    public static final String PREVIEW = "preview";
    public static final String PROJECT_WORK_READ = "project.work.read";
    public static final String PROJECT_WORK_WRITE = "project.work.write";
    public static final String WIKI_READ = "wiki.read";
    public static final String WIKI_WRITE = "wiki.write";
    public static final String ORCHESTRATION = "orchestration";

    private Capabilities() {
    }

    /**
     * @param settings      the agent's current settings
     * @param orchestration true for every thread caller and for outside agents approved above read-only
     * @return the scopes, each at most once, in a fixed order
     */
    public static List<String> derive(AgentSettings settings, boolean orchestration) {
        List<String> scopes = new ArrayList<>();
        if (settings.browserAccess()) {
            scopes.add(PREVIEW);
        }
        if (settings.project().enabled()) {
            scopes.add(PROJECT_WORK_READ);
            scopes.add(PROJECT_WORK_WRITE);
        }
        if (settings.wiki().read()) {
            scopes.add(WIKI_READ);
        }
        if (settings.wiki().write()) {
            scopes.add(WIKI_WRITE);
        }
        if (orchestration) {
            scopes.add(ORCHESTRATION);
        }
        return List.copyOf(scopes);
    }
}
