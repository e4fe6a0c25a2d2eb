package dev.gatehouse.facts;

/**
 * The syntax of a word of the policy's vocabulary that reaches the PEP from outside: an outside agent's ceiling claim
 * and the two names of {@code T3-Mode-Limit} (docs/domain.md §1; schemas/decision-input.json {@code $defs/name}).
 * The PEP checks this and nothing more, and sends the word exactly as received: which words are ceilings or modes is
 * policy data ({@code policies/gatehouse/modes/data.json}), judged by the policy ({@code ceiling_unknown},
 * {@code mode_limit_unknown}), so a renamed mode or ceiling needs a new bundle and no new gateway.
 *
 * <p>A well-formed word is an RFC 9110 token (§5.6.2: ASCII letters, digits and {@code !#$%&'*+-.^_`|~}) of 1 to
 * {@value #MAX_LENGTH} characters: it holds no separator of the header ({@code /}), no space and nothing to
 * normalise, and it bounds what a caller can make the decision input carry.
 */
public final class VocabularyName {

    /** The most characters a word may have. */
    public static final int MAX_LENGTH = 64;

    private static final String TOKEN_PUNCTUATION = "!#$%&'*+-.^_`|~";

    private VocabularyName() {
    }

    /** True when {@code word} is an RFC 9110 token of 1 to {@value #MAX_LENGTH} characters. */
    public static boolean wellFormed(String word) {
        if (word == null || word.isEmpty() || word.length() > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < word.length(); i++) {
            char c = word.charAt(i);
            boolean alphanumeric = c < 128 && Character.isLetterOrDigit(c);
            if (!alphanumeric && TOKEN_PUNCTUATION.indexOf(c) < 0) {
                return false;
            }
        }
        return true;
    }
}
