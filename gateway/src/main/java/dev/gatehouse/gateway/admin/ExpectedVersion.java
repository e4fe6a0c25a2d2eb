package dev.gatehouse.gateway.admin;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The version a replacing {@code PUT} expects (optimistic concurrency, RFC 9110 §13.1), read the same way for thread
 * agents' settings and outside-agent registrations: from {@code If-Match} ({@code "3"}, {@code W/"3"} or {@code 3}),
 * the body's {@code version}, or {@code If-None-Match: *} alone (written only when nothing is stored: version 0).
 *
 * @param expected the version expected ({@code 0}: nothing stored); empty: neither was sent, last write wins
 * @param problems why the preconditions were refused; empty when they were not
 */
record ExpectedVersion(OptionalLong expected, List<FieldProblem> problems) {

    /**
     * Reads the preconditions of a write: refused for an {@code If-None-Match} other than {@code *} alone without
     * {@code If-Match} (field {@code If-None-Match}; {@code ifNoneMatchWrites} says what {@code *} does), and for a
     * malformed or contradictory version (field {@code version}).
     */
    static ExpectedVersion of(Optional<String> ifMatch, Optional<String> ifNoneMatch, Long bodyVersion,
            String ifNoneMatchWrites) {
        List<FieldProblem> problems = new ArrayList<>();
        if (ifNoneMatch.isPresent() && (!ifNoneMatch.get().strip().equals("*") || ifMatch.isPresent())) {
            problems.add(FieldProblem.invalid("If-None-Match", "Takes * alone, without If-Match: "
                    + ifNoneMatchWrites + "."));
        }
        // Version 0 is "none stored": the store writes only when there is none, else answers a conflict.
        Optional<OptionalLong> expected = expected(ifNoneMatch.isPresent() ? Optional.of("0") : ifMatch, bodyVersion);
        if (expected.isEmpty()) {
            problems.add(FieldProblem.invalid("version",
                    "If-Match and version must be one non-negative version number and agree"));
        }
        return new ExpectedVersion(expected.orElse(OptionalLong.empty()), problems);
    }

    /**
     * The expected version from {@code If-Match} and/or the body: empty optional when malformed or contradictory,
     * empty {@link OptionalLong} when neither was sent.
     */
    private static Optional<OptionalLong> expected(Optional<String> ifMatch, Long bodyVersion) {
        OptionalLong header = OptionalLong.empty();
        if (ifMatch.isPresent() && !ifMatch.get().isBlank()) {
            String tag = ifMatch.get().strip();
            if (tag.startsWith("W/")) {
                tag = tag.substring(2);
            }
            if (tag.length() >= 2 && tag.startsWith("\"") && tag.endsWith("\"")) {
                tag = tag.substring(1, tag.length() - 1);
            }
            if (!tag.matches("[0-9]{1,18}")) {
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
