package dev.gatehouse.gateway.context;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.lang.UCharacterCategory;
import com.ibm.icu.text.Normalizer2;
import com.ibm.icu.text.SpoofChecker;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * The outside-agent namespace (docs/domain.md §1). Every outside agent's logical id begins with {@link #PREFIX}; no
 * thread agent's may, nor one that only looks like it ({@link #inNamespace}: the admin API refuses it wherever it
 * takes a thread agent id, {@link #isThreadAgentId}), so the two namespaces never meet. An unregistered outside agent's id is derived from its token's issuer and subject together:
 * {@code oa-} + the first 128 bits of SHA-256(length of issuer in UTF-16 units + ":" + issuer + "\n" + subject) in
 * lower-case hex. The length prefix keeps the pair unambiguous when a value itself holds a newline. The subject alone
 * never names an agent, and the same subject from two issuers names two agents.
 */
public final class OutsideAgentIds {

    /** The namespace's prefix. */
    public static final String PREFIX = "oa-";

    /** What a derived id looks like: only {@link #derive} may produce one. */
    public static final Pattern DERIVED = Pattern.compile("oa-[0-9a-f]{32}");

    /** What a registered id may look like: the prefix, then a wiki-safe name (one path segment, ASCII). */
    public static final Pattern REGISTERED = Pattern.compile("oa-[a-z0-9](?:[a-z0-9_.-]{0,62}[a-z0-9_-])?");

    private static final Normalizer2 NFKC_CASEFOLD = Normalizer2.getNFKCCasefoldInstance();
    private static final Normalizer2 NFD = Normalizer2.getNFDInstance();
    /** UTS #39 confusable skeletons; immutable once built, so shared by all threads. */
    private static final SpoofChecker CONFUSABLES = new SpoofChecker.Builder().build();

    private OutsideAgentIds() {
    }

    /** The id of the unregistered outside agent with this issuer and subject. */
    public static String derive(String issuer, String subject) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest((issuer.length() + ":" + issuer + "\n" + subject).getBytes(StandardCharsets.UTF_8));
            return PREFIX + HexFormat.of().formatHex(digest, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }

    /**
     * Whether {@code id} lies in the outside-agent namespace, or looks as if it did: folded, it begins with
     * {@link #PREFIX}. The fold: NFKC with case folding (default-ignorable code points go with it), canonical
     * decomposition without combining marks, the UTS #39 confusable skeleton (ICU's confusables data), case folding
     * again, surrounding white space stripped. So {@code OA-1}, fullwidth {@code ｏａ-1}, Cyrillic {@code оа-1},
     * {@code o\u0301a-1}, {@code 0a-1}, {@code oa\u2010x} (a hyphen that looks like {@code -}) and {@code \u200boa-1}
     * are in it; {@code oak}, {@code boa-1} and {@code oa_1} are not.
     */
    public static boolean inNamespace(String id) {
        StringBuilder unmarked = new StringBuilder();
        NFD.normalize(NFKC_CASEFOLD.normalize(id)).codePoints().filter(cp -> !isMark(cp))
                .forEach(unmarked::appendCodePoint);
        return NFKC_CASEFOLD.normalize(CONFUSABLES.getSkeleton(unmarked.toString())).strip().startsWith(PREFIX);
    }

    /**
     * Whether {@code id} may name a thread agent: the one check the admin API makes wherever it takes one (a session's
     * {@code logicalAgentId}, {@code PUT /admin/agents/{id}}, a registration's {@code sharesThreadAgent}): not blank and
     * not in the outside-agent namespace ({@link #inNamespace}).
     */
    public static boolean isThreadAgentId(String id) {
        return id != null && !id.isBlank() && !inNamespace(id);
    }

    private static boolean isMark(int cp) {
        int type = UCharacter.getType(cp);
        return type == UCharacterCategory.NON_SPACING_MARK || type == UCharacterCategory.COMBINING_SPACING_MARK
                || type == UCharacterCategory.ENCLOSING_MARK;
    }
}
