package dev.gatehouse.gateway.tools.wiki;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.http.IdempotencyKey;
import dev.gatehouse.facade.wiki.WikiEntry;
import dev.gatehouse.facade.wiki.WikiFacade;
import dev.gatehouse.facade.wiki.WikiHit;
import dev.gatehouse.facade.wiki.WikiMove;
import dev.gatehouse.facade.wiki.WikiPage;
import dev.gatehouse.facade.wiki.WikiRevision;
import dev.gatehouse.facade.wiki.WikiScope;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A wiki facade that records what it was asked and answers with fixed values (or one fixed failure). */
final class RecordingWiki implements WikiFacade {

    /** One call: operation, scope, path ({@code from} for a move), and the other arguments. */
    record Call(String operation, WikiScope scope, String path, List<Object> rest) {
    }

    final List<Call> calls = new ArrayList<>();
    /** The key of each mutation, in call order. */
    final List<IdempotencyKey> keys = new ArrayList<>();
    FacadeResult.Failed<?> failure;

    @Override
    public FacadeResult<List<WikiEntry>> list(WikiScope scope, String path) {
        return answer(new Call("list", scope, path, List.of()), List.of(new WikiEntry("page.md", "page",
                Optional.of("r1")), new WikiEntry("notes", "folder", Optional.empty())));
    }

    @Override
    public FacadeResult<WikiPage> read(WikiScope scope, String path) {
        return answer(new Call("read", scope, path, List.of()), new WikiPage("page.md", "text", "r1"));
    }

    @Override
    public FacadeResult<List<WikiHit>> search(WikiScope scope, String path, String query) {
        return answer(new Call("search", scope, path, List.of(query)), List.of(new WikiHit("page.md", "a line")));
    }

    @Override
    public FacadeResult<WikiRevision> write(WikiScope scope, String path, String content,
            Optional<String> baseRevision, IdempotencyKey key) {
        keys.add(key);
        return answer(new Call("write", scope, path, List.of(content, baseRevision)), new WikiRevision("page.md",
                "r2"));
    }

    @Override
    public FacadeResult<WikiRevision> delete(WikiScope scope, String path, String baseRevision,
            IdempotencyKey key) {
        keys.add(key);
        return answer(new Call("delete", scope, path, List.of(baseRevision)), new WikiRevision("page.md", "r2"));
    }

    @Override
    public FacadeResult<WikiMove> move(WikiScope scope, String from, String to, String baseRevision,
            IdempotencyKey key) {
        keys.add(key);
        return answer(new Call("move", scope, from, List.of(to, baseRevision)), new WikiMove("page.md",
                "archive/page.md", "r3"));
    }

    @SuppressWarnings("unchecked")
    private <T> FacadeResult<T> answer(Call call, T value) {
        calls.add(call);
        return failure != null ? (FacadeResult<T>) failure : new FacadeResult.Ok<>(value);
    }
}
