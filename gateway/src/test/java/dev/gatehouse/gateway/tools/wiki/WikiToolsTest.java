package dev.gatehouse.gateway.tools.wiki;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.error.ServiceError;
import dev.gatehouse.facade.http.IdempotencyKey;
import dev.gatehouse.facade.wiki.WikiScope;
import dev.gatehouse.gateway.policy.api.Obligations;
import dev.gatehouse.gateway.tools.Contexts;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolOutcome;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Wiki handlers: the subtree and the resolved path from the obligations, the agent id from the context, results as
 * they came.
 */
class WikiToolsTest {

    /** The decision that allowed each call here; its mutation is sent under the key derived from it. */
    static final UUID DECISION = UUID.fromString("0b7e8f3c-2d4a-4c1e-9f6b-5a3d2c1b0e9f");

    private static final Optional<String> ROOT = Optional.of("agents/a1");
    private static final Obligations RESOLVED = new Obligations(Map.of(), Map.of("path", "agents/a1/page.md"), ROOT);
    private static final WikiScope A1 = new WikiScope("a1", "agents/a1");

    private final RecordingWiki wiki = new RecordingWiki();

    @Test
    void readUsesTheResolvedPathAndNeverTheRawArgument() {
        ToolOutcome outcome = new WikiReadTool(wiki).handle(call(Map.of("path", "../a2/secret.md"), RESOLVED));

        assertEquals(List.of(new RecordingWiki.Call("read", A1, "agents/a1/page.md", List.of())), wiki.calls);
        assertEquals(new ToolOutcome.Succeeded(Map.of("path", "page.md", "content", "text", "revision", "r1")),
                outcome);
    }

    @Test
    void writeAndDeletePassContentAndRevisions() {
        new WikiWriteTool(wiki).handle(call(Map.of("path", "page.md", "content", "new", "baseRevision", "r1"),
                RESOLVED));
        new WikiWriteTool(wiki).handle(call(Map.of("path", "page.md", "content", "fresh"), RESOLVED));
        ToolOutcome deleted = new WikiDeleteTool(wiki).handle(call(Map.of("path", "page.md", "baseRevision", "r2"),
                RESOLVED));

        assertEquals(List.of(
                new RecordingWiki.Call("write", A1, "agents/a1/page.md", List.of("new", Optional.of("r1"))),
                new RecordingWiki.Call("write", A1, "agents/a1/page.md", List.of("fresh", Optional.empty())),
                new RecordingWiki.Call("delete", A1, "agents/a1/page.md", List.of("r2"))), wiki.calls);
        assertEquals(new ToolOutcome.Succeeded(Map.of("path", "page.md", "revision", "r2")), deleted);
        assertEquals(Collections.nCopies(3, IdempotencyKey.forDecision(DECISION)), wiki.keys,
                "each mutation is sent under the key of the decision that allowed it");
    }

    @Test
    void moveUsesBothResolvedPathsAndNeverTheRawArguments() {
        Obligations both = new Obligations(Map.of(), Map.of("from", "agents/a1/page.md",
                "to", "agents/a1/archive/page.md"), ROOT);

        ToolOutcome moved = new WikiMoveTool(wiki).handle(call(Map.of("from", "../a2/secret.md",
                "to", "../a2/stolen.md", "baseRevision", "r2"), both));

        assertEquals(List.of(new RecordingWiki.Call("move", A1, "agents/a1/page.md",
                List.of("agents/a1/archive/page.md", "r2"))), wiki.calls);
        assertEquals(new ToolOutcome.Succeeded(Map.of("from", "page.md", "to", "archive/page.md", "revision", "r3")),
                moved);
        assertEquals(List.of(IdempotencyKey.forDecision(DECISION)), wiki.keys);
    }

    @Test
    void moveWithoutBothResolvedPathsCallsNothing() {
        ServiceError missing = new ServiceError.Rejected("the decision carried no wiki subtree or resolved path",
                "obligation_missing");
        Map<String, Object> arguments = Map.of("from", "page.md", "to", "b.md", "baseRevision", "r1");

        for (Map<String, String> paths : List.of(Map.of("from", "agents/a1/page.md"),
                Map.of("to", "agents/a1/b.md"), Map.of("path", "agents/a1/page.md"))) {
            assertEquals(new ToolOutcome.Failed(missing, Optional.empty()), new WikiMoveTool(wiki).handle(call(arguments,
                    new Obligations(Map.of(), paths, ROOT))), paths.toString());
        }
        assertEquals(List.of(), wiki.calls);
    }

    @Test
    void moveConflictsAndMissingPagesComeBackAsTheyWere() {
        Obligations both = new Obligations(Map.of(), Map.of("from", "agents/a1/page.md", "to", "agents/a1/b.md"), ROOT);
        Map<String, Object> arguments = Map.of("from", "page.md", "to", "b.md", "baseRevision", "r1");
        for (ServiceError error : List.of(new ServiceError.Conflict("stale or taken"),
                new ServiceError.NotFound("no such page", "page"))) {
            wiki.failure = new FacadeResult.Failed<>(error);
            assertEquals(new ToolOutcome.Failed(error, Optional.ofNullable(error instanceof ServiceError.Conflict
                    ? "wiki_read" : null)), new WikiMoveTool(wiki).handle(call(arguments, both)));
        }
    }

    @Test
    void listAndSearchProjectEntriesAndHits() {
        Obligations root = new Obligations(Map.of(), Map.of("path", "agents/a1"), ROOT);

        ToolOutcome listed = new WikiListTool(wiki).handle(call(Map.of(), root));
        ToolOutcome found = new WikiSearchTool(wiki).handle(call(Map.of("query", "line"), root));

        assertEquals(new ToolOutcome.Succeeded(Map.of("entries", List.of(
                Map.of("path", "page.md", "kind", "page", "revision", "r1"),
                Map.of("path", "notes", "kind", "folder")))), listed);
        assertEquals(new ToolOutcome.Succeeded(Map.of("hits", List.of(Map.of("path", "page.md", "snippet",
                "a line")))), found);
        assertEquals(new RecordingWiki.Call("search", A1, "agents/a1", List.of("line")), wiki.calls.get(1));
    }

    @Test
    void withoutAResolvedPathOrSubtreeNothingIsCalled() {
        ToolOutcome failed = new ToolOutcome.Failed(new ServiceError.Rejected(
                "the decision carried no wiki subtree or resolved path", "obligation_missing"), Optional.empty());
        for (Obligations partial : List.of(Obligations.NONE,
                new Obligations(Map.of(), Map.of("path", "agents/a1/page.md"), Optional.empty()),
                new Obligations(Map.of(), Map.of(), ROOT))) {
            assertEquals(failed, new WikiReadTool(wiki).handle(call(Map.of("path", "page.md"), partial)),
                    partial.toString());
        }
        assertEquals(List.of(), wiki.calls);
    }

    /** The subtree is the policy's choice, whatever the caller: a sharing outside agent works in the shared one. */
    @Test
    void theSubtreeComesFromTheObligationNotFromTheContext() {
        Obligations shared = new Obligations(Map.of(), Map.of("path", "agents/a1/page.md"), ROOT);

        new WikiReadTool(wiki).handle(new ToolCall(Map.of("path", "page.md"), shared, Contexts.outside("oa-partner"),
                DECISION));

        assertEquals(List.of(new RecordingWiki.Call("read", new WikiScope("oa-partner", "agents/a1"),
                "agents/a1/page.md", List.of())), wiki.calls);
    }

    @Test
    void serviceFailuresComeBackAsTheyWereWithTheWikiHint() {
        ServiceError conflict = new ServiceError.Conflict("stale");
        wiki.failure = new FacadeResult.Failed<>(conflict);

        assertEquals(new ToolOutcome.Failed(conflict, Optional.of("wiki_read")), new WikiWriteTool(wiki).handle(call(Map.of("path", "page.md",
                "content", "x", "baseRevision", "r0"), RESOLVED)));
    }

    private static ToolCall call(Map<String, Object> arguments, Obligations obligations) {
        return new ToolCall(arguments, obligations, Contexts.thread("a1", "t1"), DECISION);
    }
}
