package dev.gatehouse.gateway.admin;

import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * How the admin API answers an {@link AdminResult} other than a success: one mapping for every admin controller.
 * <ul>
 * <li>{@link AdminResult.Refused}: 400 {@code {error: "missing_fields", missing[]}} when a field is missing, else
 * {@code {error: "invalid_version", invalid: ["version"], message}} for a malformed version alone (with the
 * {@code invalid} list every field refusal has), else {@code {error:
 * "unsupported_provider", message}} for a provider kind, else {@code {error: "invalid_fields", invalid[],
 * messages}};</li>
 * <li>{@link AdminResult.Conflict}: 409 {@code {error: "version_conflict", currentVersion}} with {@code ETag};</li>
 * <li>{@link AdminResult.PreconditionFailed}: 412 {@code {error: "precondition_failed", message}};</li>
 * <li>{@link AdminResult.NotFound}: 404 {@code {error: "not_found", message}}.</li>
 * </ul>
 */
final class AdminResponses {

    private AdminResponses() {
    }

    /** The answer to {@code result}: {@code done} for a success, the mapping above otherwise. */
    static <T> HttpResponse<?> answer(AdminResult<T> result, Function<T, HttpResponse<?>> done) {
        if (result instanceof AdminResult.Done<T> ok) {
            return done.apply(ok.value());
        }
        if (result instanceof AdminResult.Conflict<T> conflict) {
            return HttpResponse.status(HttpStatus.CONFLICT).header("ETag", etag(conflict.currentVersion()))
                    .body(Map.of("error", "version_conflict", "currentVersion", conflict.currentVersion()));
        }
        if (result instanceof AdminResult.Refused<T> refused) {
            return refusal(refused.problems());
        }
        if (result instanceof AdminResult.PreconditionFailed<T> failed) {
            return HttpResponse.status(HttpStatus.PRECONDITION_FAILED)
                    .body(Map.of("error", "precondition_failed", "message", failed.message()));
        }
        return notFound();
    }

    /** 404 {@code {error: "not_found", message}}: nothing by that id (or nothing stored under it). */
    static HttpResponse<?> notFound() {
        return HttpResponse.notFound(Map.of("error", "not_found", "message", "Nothing by that id."));
    }

    static HttpResponse<?> refusal(List<FieldProblem> problems) {
        List<String> missing = fields(problems, FieldProblem.Kind.MISSING);
        if (!missing.isEmpty()) {
            return HttpResponse.badRequest(Map.of("error", "missing_fields", "missing", missing));
        }
        if (problems.size() == 1 && problems.get(0).field().equals("version")) {
            return HttpResponse.badRequest(Map.of("error", "invalid_version", "invalid", List.of("version"),
                    "message", problems.get(0).message()));
        }
        for (FieldProblem problem : problems) {
            if (problem.kind() == FieldProblem.Kind.UNSUPPORTED) {
                return HttpResponse.badRequest(Map.of("error", "unsupported_provider", "message", problem.message()));
            }
        }
        return HttpResponse.badRequest(Map.of("error", "invalid_fields",
                "invalid", fields(problems, FieldProblem.Kind.INVALID),
                "messages", problems.stream().map(FieldProblem::message).toList()));
    }

    private static List<String> fields(List<FieldProblem> problems, FieldProblem.Kind kind) {
        return problems.stream().filter(p -> p.kind() == kind).map(FieldProblem::field).toList();
    }

    static String etag(long version) {
        return "\"" + version + "\"";
    }
}
