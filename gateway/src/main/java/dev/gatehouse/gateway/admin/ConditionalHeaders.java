package dev.gatehouse.gateway.admin;

import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The conditional headers of an admin write, {@code If-Match} and {@code If-None-Match}, each read once, for
 * {@link ExpectedVersion}: a header given on two lines (whatever each says, the same version included) is refused on
 * that header, since which version the client meant would be a guess (the first was taken).
 *
 * @param ifMatch     the one {@code If-Match}, if any
 * @param ifNoneMatch the one {@code If-None-Match}, if any
 */
record ConditionalHeaders(Optional<String> ifMatch, Optional<String> ifNoneMatch) {

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
}
