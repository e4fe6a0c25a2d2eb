package dev.gatehouse.facade.wiki;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.http.IdempotencyKey;
import java.util.List;
import java.util.Optional;

/**
 * The Wiki service (docs/domain.md §5 and §7). Every {@code path} is the resolved full path from the decision's
 * obligation ({@code agents/<agentId>/…}), never a raw tool argument. Implementations add the agent id and the
 * service credential, and drop any result outside {@link WikiScope#root()}; result paths are relative to it.
 * No method throws for a service failure: it comes back as one kind of docs/domain.md §8. Reads may be retried once
 * when the connection was refused; writes, moves and deletes never are, and each carries the caller's
 * {@link IdempotencyKey} (an uncertain one reports it as its operation id). Every call ends within the service's
 * deadline.
 */
public interface WikiFacade {

    /** Direct children of folder {@code path}; an empty list when nothing is stored under it. */
    FacadeResult<List<WikiEntry>> list(WikiScope scope, String path);

    /** Page {@code path}; NotFound("page") when it does not exist. */
    FacadeResult<WikiPage> read(WikiScope scope, String path);

    /** Lines containing {@code query} (case-insensitive) in pages under folder {@code path}. */
    FacadeResult<List<WikiHit>> search(WikiScope scope, String path, String query);

    /**
     * Creates or replaces page {@code path} atomically (mutation). With a base revision the write succeeds only
     * if the page is still at it; without one only if the page does not exist yet. Otherwise Conflict.
     */
    FacadeResult<WikiRevision> write(WikiScope scope, String path, String content,
            Optional<String> baseRevision, IdempotencyKey key);

    /** Deletes page {@code path} if it is still at {@code baseRevision} (mutation); Conflict otherwise. */
    FacadeResult<WikiRevision> delete(WikiScope scope, String path, String baseRevision, IdempotencyKey key);

    /**
     * Moves page {@code from} to {@code to} atomically (mutation), if it is still at {@code baseRevision}: the page
     * is at exactly one of the two paths at any time. NotFound("page") when {@code from} does not exist; Conflict
     * when it is at another revision or a page already exists at {@code to} (never overwritten).
     */
    FacadeResult<WikiMove> move(WikiScope scope, String from, String to, String baseRevision, IdempotencyKey key);
}
