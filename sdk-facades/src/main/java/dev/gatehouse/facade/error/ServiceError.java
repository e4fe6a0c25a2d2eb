package dev.gatehouse.facade.error;

import java.util.Optional;

/**
 * A service failure as a value, one kind per row of docs/domain.md §8. Facades map every transport or HTTP failure to
 * exactly one kind, once, at their boundary; the gateway maps kinds to MCP tool errors once, at its boundary.
 * Messages never carry credentials, tokens or raw service bodies.
 */
public sealed interface ServiceError {

    /** Stable machine-readable kind: {@code authentication}, {@code incompatible}, {@code conflict}, … */
    String kind();

    /** Short human-readable description, safe to show an agent. */
    String message();

    /** 401/403 from the service: the service credential was refused. The session stays. */
    record Authentication(String message) implements ServiceError {
        public String kind() { return "authentication"; }
    }

    /** SDK/API/protocol generation mismatch, or a response that cannot be decoded. */
    record Incompatible(String message) implements ServiceError {
        public String kind() { return "incompatible"; }
    }

    /** Stale run/assignment revision or wiki baseRevision. Hint: {@code project_work_list} / re-read. */
    record Conflict(String message) implements ServiceError {
        public String kind() { return "conflict"; }
    }

    /**
     * A mutation whose outcome is unknown (transport failure or deadline after sending). Never retried.
     * Hint: {@code project_operation_get} with the operation id when known.
     */
    record Uncertain(String message, Optional<String> operationId) implements ServiceError {
        public String kind() { return "uncertain"; }
    }

    /** The named thing does not exist; {@code what} is {@code run|operation|project|page|thread}. */
    record NotFound(String message, String what) implements ServiceError {
        public String kind() { return "not_found"; }
    }

    /** Integration disabled, service unreachable, or deadline passed on a read. */
    record Unavailable(String message) implements ServiceError {
        /** The kind, also what a gate denial made only of retryable reasons is answered as. */
        public static final String KIND = "unavailable";

        public String kind() { return KIND; }
    }

    /** Anything else the service refused; its own code is kept. */
    record Rejected(String message, String serviceCode) implements ServiceError {
        public String kind() { return "rejected"; }
    }
}
