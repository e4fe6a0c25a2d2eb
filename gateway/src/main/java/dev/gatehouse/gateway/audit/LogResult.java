package dev.gatehouse.gateway.audit;

/**
 * Whether a record reached the log. The PEP runs the handler only after {@link Written}; {@link NotWritten}
 * means the call is denied (a decision that cannot be logged is not enforced, style card 7).
 */
public sealed interface LogResult {

    /** The whole line was handed to the operating system (forced to the device with {@code gatehouse.audit.fsync}). */
    record Written() implements LogResult {
    }

    /**
     * Nothing, or not the whole line, could be written.
     *
     * @param detail operator-facing reason (queue full, timeout, file and I/O error; see {@link DecisionLog}), never
     *               decision input
     */
    record NotWritten(String detail) implements LogResult {
    }
}
