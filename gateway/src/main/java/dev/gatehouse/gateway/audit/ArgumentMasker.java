package dev.gatehouse.gateway.audit;

import com.fasterxml.jackson.databind.node.TextNode;
import java.util.regex.Pattern;

/**
 * Which argument members the decision log masks, the way OPA's decision-log mask policy upserts values and lists
 * them in {@code masked}. The decision input carries no secrets by construction (docs/domain.md §6), but arguments
 * are the caller's text: a member anywhere under {@code input.arguments} named like a credential, token or
 * authorization (any case, anywhere in the name) gets the value {@link #MASK} ({@link RecordRedactor} applies it).
 * Only values change; the member names stay, because the identity rules read names, so a masked input still
 * replays to the same decision.
 */
final class ArgumentMasker {

    /** The value written instead of a masked one. */
    static final TextNode MASK = TextNode.valueOf("**masked**");

    /** Found anywhere in a member name, whatever the case or the characters around it (newlines included). */
    private static final Pattern CREDENTIAL_LIKE = Pattern.compile(
            "(?i)(credential|token|authori[sz]ation|pass[-_ ]?w(or)?d|secret|api[-_ ]?key|cookie|bearer"
                    + "|private[-_ ]?key)");

    private ArgumentMasker() {
    }

    /** Whether the value of an argument member named {@code name} is masked. */
    static boolean masks(String name) {
        return CREDENTIAL_LIKE.matcher(name).find();
    }
}
