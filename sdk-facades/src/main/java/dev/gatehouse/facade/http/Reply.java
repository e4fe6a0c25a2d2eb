package dev.gatehouse.facade.http;

import java.util.Optional;

/** What became of one HTTP exchange, before any interpretation. */
public sealed interface Reply {

    /**
     * The service answered with a status.
     *
     * @param status      HTTP status code
     * @param contentType the {@code Content-Type} header, if any
     * @param apiVersion  the {@code Api-Version} header, if any
     * @param operationId the {@code Operation-Id} header, if any
     * @param body        the body bytes (empty when none)
     */
    record Answered(int status, Optional<String> contentType, Optional<String> apiVersion,
            Optional<String> operationId, byte[] body) implements Reply {
    }

    /**
     * The connection could not be made: nothing was sent.
     *
     * @param retryable true when the peer refused at once; false when connecting used up the deadline
     */
    record Refused(boolean retryable) implements Reply {
    }

    /** The deadline passed; the request may have been sent and processed. */
    record TimedOut() implements Reply {
    }

    /** The transport failed after the connection was made (reset, closed, garbled); outcome unknown. */
    record Broken() implements Reply {
    }
}
