package dev.gatehouse.gateway.admin;

import com.ibm.icu.text.Normalizer2;
import dev.gatehouse.gateway.context.OutsideAgentIds;
import java.util.Optional;

/**
 * What the admin services accept as a thread agent's id (docs/domain.md §1): not blank, at most {@value #MAX_LENGTH}
 * characters, every one of them shown to an operator ({@link InvisibleCharacters#notPrintable}: no white space,
 * control, format or bidirectional character, the rule a registration's issuer follows), in its normal form (NFKC:
 * no decomposed accent, fullwidth letter or other compatibility form, which would show as another id), one path
 * segment (no {@code /} or {@code \}, not {@code .} or {@code ..}: a new user's trial stored {@code ..} and
 * {@code a1/../../sessions}, which no console page could open), and never in the outside-agent namespace
 * ({@code oa-…}, folded), so the two kinds of agent can never share an id. A new user's trial found
 * {@code a1\u200b} and {@code a\uff11} taken beside {@code a1}, looking the same in every list.
 */
final class ThreadAgentIds {

    static final int MAX_LENGTH = 128;
    private static final Normalizer2 NFKC = Normalizer2.getNFKCInstance();

    private ThreadAgentIds() {
    }

    /** Why {@code id} may not name a thread agent, reported on {@code field}; empty when it may. */
    static Optional<FieldProblem> problem(String field, String id) {
        if (id == null || id.isBlank()) {
            return Optional.of(FieldProblem.missing(field));
        }
        if (id.length() > MAX_LENGTH) {
            return Optional.of(FieldProblem.invalid(field, "An agent id has at most " + MAX_LENGTH + " characters."));
        }
        if (id.codePoints().anyMatch(InvisibleCharacters::notPrintable)) {
            return Optional.of(FieldProblem.invalid(field, "An agent id shows every character it holds: no white"
                    + " space, control, format or bidirectional characters."));
        }
        if (!NFKC.isNormalized(id)) {
            return Optional.of(FieldProblem.invalid(field, "An agent id is written in its normal form (NFKC): accents"
                    + " composed with their letters, no fullwidth or other compatibility forms."));
        }
        if (id.equals(".") || id.equals("..") || id.indexOf('/') >= 0 || id.indexOf('\\') >= 0) {
            // The id names the agent's wiki folder and its console page: a path of its own would be neither.
            return Optional.of(FieldProblem.invalid(field, "An agent id is one path segment: no \"/\" or \"\\\","
                    + " and not \".\" or \"..\"."));
        }
        if (OutsideAgentIds.inNamespace(id)) {
            return Optional.of(FieldProblem.invalid(field,
                    "Ids beginning with " + OutsideAgentIds.PREFIX + " belong to outside agents."));
        }
        return Optional.empty();
    }
}
