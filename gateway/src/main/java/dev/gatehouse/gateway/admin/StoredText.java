package dev.gatehouse.gateway.admin;

import io.micronaut.core.annotation.Nullable;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one check of a free text an operator stores (a session's ids and agent name, a project binding, an outside
 * agent's issuer and subject, a delivery profile's client id and modes), the same from the admin API and the
 * console's forms: at most {@value #MAX_CHARS} characters, and no control character (Unicode category Cc, U+0000 to
 * U+001F and U+007F to U+009F): PostgreSQL cannot keep U+0000, and a page cannot show the others. Format characters
 * (the bidirectional controls) stay allowed; pages show them visibly. A text of more than {@value #MAX_CHARS}
 * characters could not be searched for either (the decision search matches at most as many).
 */
final class StoredText {

    /** The longest stored text, in characters (UTF-16 units): as long as a search filter may be. */
    static final int MAX_CHARS = QueryParameters.MAX_TEXT;

    private StoredText() {
    }

    /** The problems of the present texts among {@code fields} (field name to value; a null value is absent). */
    static List<FieldProblem> problems(Map<String, String> fields) {
        return fields.entrySet().stream().flatMap(field -> problem(field.getKey(), field.getValue()).stream())
                .toList();
    }

    /** The problem of {@code value} as the text of {@code field}, if it has one; none when absent. */
    static Optional<FieldProblem> problem(String field, @Nullable String value) {
        if (value == null) {
            return Optional.empty();
        }
        if (value.length() > MAX_CHARS) {
            return Optional.of(FieldProblem.invalid(field, "At most " + MAX_CHARS + " characters."));
        }
        if (value.chars().anyMatch(Character::isISOControl)) {
            return Optional.of(FieldProblem.invalid(field, "No control characters (such as U+0000 or a line break)."));
        }
        return Optional.empty();
    }
}
