package dev.gatehouse.gateway.admin;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The version a replacing {@code PUT} expects (optimistic concurrency, RFC 9110 §13.1), read the same way for thread
 * agents' settings and outside-agent registrations: from {@code If-Match}, the body's {@code version}, or
 * {@code If-None-Match: *} alone (written only when nothing is stored: version 0). {@code If-Match} compares strongly
 * (RFC 9110 §13.1.1): one entity tag ({@code "3"}, or {@code 3} unquoted; no leading zero, not empty), which the
 * stored version must equal;
 * {@code *}, which anything stored matches; a weak tag ({@code W/"3"}), which nothing matches. {@code If-None-Match: *}
 * is false when anything is stored (RFC 9110 §13.1.2): a failed precondition, not a version conflict
 * ({@link #refusedAt}).
 *
 * @param expected   the version expected ({@code 0}: nothing stored); empty: none was sent, or {@code If-Match: *}
 *                   without a body version, which {@link #against} settles
 * @param anyStored  {@code If-Match: *} was sent
 * @param weak       {@code If-Match} was a weak tag, so the precondition fails whatever is stored
 * @param noneStored {@code If-None-Match: *} was sent
 * @param problems   why the preconditions were refused; empty when they were not
 */
record ExpectedVersion(OptionalLong expected, boolean anyStored, boolean weak, boolean noneStored,
        List<FieldProblem> problems) {

    /** Why a weak {@code If-Match} tag fails, for a 412 answer. */
    static final String WEAK_TAG = "If-Match compares strongly (RFC 9110 §13.1.1): a weak entity tag never matches."
            + " Send the ETag as given, e.g. \"3\".";

    /**
     * Reads the preconditions of a write: refused for an {@code If-None-Match} other than {@code *} alone without
     * {@code If-Match} (field {@code If-None-Match}; {@code ifNoneMatchWrites} says what {@code *} does), and for a
     * malformed or contradictory version, including {@code If-Match: *} with the body's version 0 (field
     * {@code version}). A weak tag is not read: it fails whatever it says.
     */
    static ExpectedVersion of(Optional<String> ifMatch, Optional<String> ifNoneMatch, Long bodyVersion,
            String ifNoneMatchWrites) {
        List<FieldProblem> problems = new ArrayList<>();
        if (ifNoneMatch.isPresent() && (!ifNoneMatch.get().strip().equals("*") || ifMatch.isPresent())) {
            problems.add(FieldProblem.invalid("If-None-Match", "Takes * alone, without If-Match: "
                    + ifNoneMatchWrites + "."));
        }
        String tag = ifMatch.map(String::strip).orElse("");
        boolean anyStored = tag.equals("*");
        boolean weak = tag.startsWith("W/");
        // Version 0 is "none stored": the store writes only when there is none, else answers a conflict.
        Optional<OptionalLong> expected = expected(ifNoneMatch.isPresent() ? Optional.of("0")
                : anyStored || weak ? Optional.empty() : ifMatch, bodyVersion);
        if (expected.isEmpty() || anyStored && bodyVersion != null && bodyVersion == 0) {
            problems.add(FieldProblem.invalid("version",
                    "If-Match and version must be one non-negative version number and agree"));
        }
        return new ExpectedVersion(expected.orElse(OptionalLong.empty()), anyStored, weak, ifNoneMatch.isPresent(),
                problems);
    }

    /**
     * What a write the store refused, finding {@code currentVersion} instead of the version expected, answers: with
     * {@code If-None-Match: *} a failed precondition (something is stored, so the condition is false, RFC 9110
     * §13.1.2; also when a racing writer stored it first), else a version conflict (a stale {@code If-Match} or body
     * {@code version}).
     *
     * @param stored what is stored, as the message names it: {@code "this agent's settings are"}
     */
    <T> AdminResult<T> refusedAt(long currentVersion, String stored) {
        if (noneStored) {
            return new AdminResult.PreconditionFailed<>("If-None-Match: * writes only when nothing is stored, and "
                    + stored + " at version " + currentVersion + ". To replace what is stored, leave it out or send"
                    + " If-Match with the version read.");
        }
        return new AdminResult.Conflict<>(currentVersion);
    }

    /**
     * The version to write against, given the version stored now ({@code 0}: nothing stored), read in the write's
     * transaction; empty when {@code If-Match: *} finds nothing stored, a failed precondition. For {@code *} without a
     * body version it is the version just read, so that a write between that read and this one is a conflict, not
     * lost.
     */
    Optional<OptionalLong> against(long stored) {
        if (anyStored && stored == 0) {
            return Optional.empty();
        }
        return Optional.of(anyStored && expected.isEmpty() ? OptionalLong.of(stored) : expected);
    }

    /**
     * The expected version from a strong {@code If-Match} tag and/or the body: empty optional when malformed or
     * contradictory, empty {@link OptionalLong} when neither was sent.
     */
    private static Optional<OptionalLong> expected(Optional<String> ifMatch, Long bodyVersion) {
        OptionalLong header = OptionalLong.empty();
        if (ifMatch.isPresent()) {
            String tag = ifMatch.get().strip();
            if (tag.length() >= 2 && tag.startsWith("\"") && tag.endsWith("\"")) {
                tag = tag.substring(1, tag.length() - 1);
            }
            // An empty header is no precondition the client meant to drop (its ETag came out empty), and a strong
            // comparison is character by character: "08" is not the ETag "8" this API sends.
            if (!tag.matches("0|[1-9][0-9]{0,17}")) {
                return Optional.empty();
            }
            header = OptionalLong.of(Long.parseLong(tag));
        }
        if (bodyVersion != null) {
            if (bodyVersion < 0 || (header.isPresent() && header.getAsLong() != bodyVersion)) {
                return Optional.empty();
            }
            return Optional.of(OptionalLong.of(bodyVersion));
        }
        return Optional.of(header);
    }
}
