package dev.gatehouse.gateway.admin;

import java.util.List;

/**
 * The outcome of one admin service call, shared by the admin API and the console so both give the same answer to the
 * same request.
 *
 * @param <T> what a successful call returns
 */
public sealed interface AdminResult<T> {

    /** Done; the change (if any) is stored and audited. */
    record Done<T>(T value) implements AdminResult<T> {
    }

    /** Refused before anything was written, with every problem found. */
    record Refused<T>(List<FieldProblem> problems) implements AdminResult<T> {
        public Refused {
            problems = List.copyOf(problems);
        }
    }

    /** The version the caller read is stale; nothing was written. */
    record Conflict<T>(long currentVersion) implements AdminResult<T> {
    }

    /**
     * A request precondition does not hold (RFC 9110 §13.1.1: {@code If-Match} matches no current representation);
     * nothing was written.
     *
     * @param message what did not match, and what would
     */
    record PreconditionFailed<T>(String message) implements AdminResult<T> {
    }

    /** No such thing to change. */
    record NotFound<T>() implements AdminResult<T> {
    }

    static <T> AdminResult<T> refused(FieldProblem... problems) {
        return new Refused<>(List.of(problems));
    }
}
