package dev.gatehouse.gateway.audit;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.gatehouse.facts.ArgumentKeys;
import java.util.List;
import java.util.stream.Stream;

/**
 * Which argument members the decision log masks, the way OPA's decision-log mask policy upserts values and lists
 * them in {@code masked}. The decision input carries no secrets by construction (docs/domain.md §6), but arguments
 * are the caller's text: a member anywhere under {@code input.arguments} whose name holds one of {@link #WORDS}, read
 * by meaning, gets the value {@link #MASK} ({@link RecordRedactor} applies it). Only values change; the member names
 * stay, because the identity rules read names, so a masked input still replays to the same decision.
 *
 * <p>Names are compared by the fold the identity rules use ({@link ArgumentKeys#folds} and
 * {@link ArgumentKeys#skeleton}): whatever their case, script, accents, compatibility forms, invisible characters or
 * separators, so {@code API_Key}, {@code p\u0430ssword} (a Cyrillic {@code а}), {@code pass\u200bword} and the
 * fullwidth {@code ｔｏｋｅｎ} are masked as {@code apikey}, {@code password} and {@code token} are. The words are
 * found anywhere in a name ({@code clientSecret}, {@code x-auth-token}); shorter ones that are parts of ordinary
 * words ({@code auth} in {@code author}, {@code pin} in {@code mapping}) are not listed, so business data is not masked
 * for them.
 */
final class ArgumentMasker {

    /** The value written instead of a masked one. */
    static final TextNode MASK = TextNode.valueOf("**masked**");

    /** What a credential's name holds, as written; compared by their folds. */
    static final List<String> WORDS = List.of("credential", "token", "authorization", "authorisation", "password",
            "passwd", "pwd", "passphrase", "secret", "apikey", "accesskey", "privatekey", "cookie", "bearer", "jwt");

    /**
     * The words in every form a name is compared in: the fold ({@code rn} written {@code m}) and the skeleton before
     * it, since a name's {@code r} and {@code n} may be the end of one word and the start of the next
     * ({@code bearerName}).
     */
    private static final List<String> FORMS = WORDS.stream()
            .flatMap(word -> Stream.of(ArgumentKeys.fold(word), ArgumentKeys.skeleton(word))).distinct().toList();

    private ArgumentMasker() {
    }

    /** Whether the value of an argument member named {@code name} is masked. */
    static boolean masks(String name) {
        if (holdsAWord(ArgumentKeys.skeleton(name))) {
            return true;
        }
        for (String fold : ArgumentKeys.folds(name)) {
            if (holdsAWord(fold)) {
                return true;
            }
        }
        return false;
    }

    private static boolean holdsAWord(String form) {
        for (String word : FORMS) {
            if (form.contains(word)) {
                return true;
            }
        }
        return false;
    }
}
