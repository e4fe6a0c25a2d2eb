package dev.gatehouse.gateway.admin;

import java.util.Objects;

/**
 * One thing wrong with one field of an admin request, found by the admin services before anything is written. The
 * admin API answers them as {@code {error: missing_fields, missing[]}}, {@code {error: invalid_fields, invalid[]}}
 * or {@code {error: unsupported_provider, message}} ({@link AdminResponses}); the console shows the message next to
 * the field.
 *
 * @param field   the field's name as the API spells it ({@code project.projectServiceProjectId})
 * @param kind    what is wrong
 * @param message a sentence for a person; never repeats the submitted value
 */
public record FieldProblem(String field, Kind kind, String message) {

    public FieldProblem {
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(message, "message");
    }

    /** What is wrong with a field. */
    public enum Kind {
        /** required and absent or blank */
        MISSING,
        /** present and not acceptable (namespace, shape, length) */
        INVALID,
        /** a provider kind this gateway does not attach */
        UNSUPPORTED
    }

    static FieldProblem missing(String field) {
        return new FieldProblem(field, Kind.MISSING, "Required.");
    }

    static FieldProblem invalid(String field, String message) {
        return new FieldProblem(field, Kind.INVALID, message);
    }
}
