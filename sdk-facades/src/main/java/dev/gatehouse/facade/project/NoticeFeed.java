package dev.gatehouse.facade.project;

import dev.gatehouse.facade.error.FacadeResult;
import java.util.Optional;

/**
 * The Project Service's notice stream for one Project client (docs/domain.md §9): long polling with a cursor, and an
 * acknowledgement per notice. No method throws for a service failure; a refused credential is
 * {@code authentication} (the caller reports it and resumes from its stored cursor later).
 */
public interface NoticeFeed {

    /**
     * The notices after {@code after} (from the start when empty), waiting up to {@code waitMillis} ms for one when
     * none is there yet. A read: retried once when the connection was refused.
     */
    FacadeResult<NoticePage> poll(String clientId, Optional<String> after, long waitMillis);

    /**
     * Records the delivery fact for one notice ({@code delivered}, {@code refused} or {@code stale}). An ACK is not
     * Work completion. Idempotent at the service: the same ACK again changes nothing.
     */
    FacadeResult<String> acknowledge(String clientId, String noticeId, String state);
}
