package dev.gatehouse.facade.host;

import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.error.ServiceError;
import java.util.Optional;

/**
 * The host's ordered feed of thread-shell changes (schemas/services/README.md, "Thread events"): a list of every
 * thread with the cursor it reflects, then the events after a cursor, long-polled. Each event carries the thread's
 * shell right after the change. Read by the gateway's shell watch (list, watch, list again when the cursor is gone)
 * and by notice delivery (a run ended). No method throws for a service failure.
 */
public interface ThreadFeed {

    /** The service code of a cursor the feed no longer holds (HTTP 410): list again and watch from there. */
    String CURSOR_EXPIRED = "cursor_expired";

    /** Every thread's shell and the cursor of the last event they reflect. */
    FacadeResult<ThreadListing> list();

    /**
     * The events after {@code after} (from the oldest the host keeps when empty), waiting up to {@code waitMillis} ms
     * for one; an empty page after the wait is the host's heartbeat. A cursor the feed no longer holds is
     * {@code rejected} with {@link #CURSOR_EXPIRED} ({@link #cursorGone}).
     */
    FacadeResult<ThreadEventPage> events(Optional<String> after, long waitMillis);

    /** True when {@code error} says the cursor asked after is gone: the reader lists again. */
    static boolean cursorGone(ServiceError error) {
        return error instanceof ServiceError.Rejected rejected && rejected.serviceCode().equals(CURSOR_EXPIRED);
    }
}
