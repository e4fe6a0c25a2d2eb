package dev.gatehouse.gateway.admin.audit;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * A page of the audit, newest first.
 *
 * @param subject  only changes by this actor subject (exact)
 * @param agentId  only changes concerning this agent (exact)
 * @param beforeId only entries older than this id (the next page's cursor)
 * @param limit    at most this many entries, 1 to {@value #MAX_LIMIT}
 */
public record AuditQuery(Optional<String> subject, Optional<String> agentId, OptionalLong beforeId, int limit) {

    public static final int MAX_LIMIT = 500;
    public static final int DEFAULT_LIMIT = 100;

    public AuditQuery {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be 1.." + MAX_LIMIT);
        }
    }

    /** The newest page without filters. */
    public static AuditQuery newest() {
        return new AuditQuery(Optional.empty(), Optional.empty(), OptionalLong.empty(), DEFAULT_LIMIT);
    }
}
