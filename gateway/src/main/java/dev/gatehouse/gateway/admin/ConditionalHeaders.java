package dev.gatehouse.gateway.admin;

import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The conditional headers of an admin write, {@code If-Match} and {@code If-None-Match}, each read once, for
 * {@link ExpectedVersion}: a header given on two lines (whatever each says, the same version included) is refused on
 * that header, since which version the client meant would be a guess (the first was taken). A write of something
 * without a version takes neither ({@link #none}).
 *
 * @param ifMatch     the one {@code If-Match}, if any
 * @param ifNoneMatch the one {@code If-None-Match}, if any
 */
record ConditionalHeaders(Optional<String> ifMatch, Optional<String> ifNoneMatch) {

    /** Why a write of something that keeps no version takes no precondition. */
    static final String UNVERSIONED = "This write takes no precondition: what it writes keeps no version.";

    private static final List<String> NAMES = List.of(HttpHeaders.IF_MATCH, HttpHeaders.IF_NONE_MATCH);

    /** The request's conditional headers; refused, 400 {@code invalid_fields} naming each, for one given twice. */
    static AdminResult<ConditionalHeaders> of(HttpRequest<?> request) {
        List<FieldProblem> problems = new ArrayList<>();
        for (String name : NAMES) {
            int given = request.getHeaders().getAll(name).size();
            if (given > 1) {
                problems.add(FieldProblem.invalid(name, "Given " + given + " times; send it once, with one version."));
            }
        }
        if (!problems.isEmpty()) {
            return new AdminResult.Refused<>(problems);
        }
        return new AdminResult.Done<>(new ConditionalHeaders(request.getHeaders().findFirst(HttpHeaders.IF_MATCH),
                request.getHeaders().findFirst(HttpHeaders.IF_NONE_MATCH)));
    }

    /**
     * {@code parsed}, refused also, 400 {@code invalid_fields} naming each, for an {@code If-Match} or
     * {@code If-None-Match} on a write that takes no precondition: it could only be ignored, and a client that sent
     * one would be surprised that it was (problems first, as {@link QueryParameters#strict} puts its own).
     *
     * @param why why this write takes none, for the message
     */
    static <T> AdminResult<T> none(HttpRequest<?> request, String why, AdminResult<T> parsed) {
        List<FieldProblem> problems = new ArrayList<>();
        for (String name : NAMES) {
            if (request.getHeaders().contains(name)) {
                problems.add(FieldProblem.invalid(name, why + " Leave the header out."));
            }
        }
        if (problems.isEmpty()) {
            return parsed;
        }
        if (parsed instanceof AdminResult.Refused<T> refused) {
            problems.addAll(refused.problems());
        }
        return new AdminResult.Refused<>(problems);
    }
}
