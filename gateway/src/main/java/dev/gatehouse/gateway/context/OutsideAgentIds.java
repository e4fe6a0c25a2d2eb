package dev.gatehouse.gateway.context;

import com.ibm.icu.text.Normalizer2;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * The outside-agent namespace (docs/domain.md §1). Every outside agent's logical id begins with {@link #PREFIX}; no
 * thread agent's may (the admin API refuses one, compared after NFKC and case folding), so the two namespaces never
 * meet. An unregistered outside agent's id is derived from its token's issuer and subject together:
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

    /** Whether {@code id}, folded (NFKC with case folding), lies in the outside-agent namespace. */
    public static boolean inNamespace(String id) {
        return NFKC_CASEFOLD.normalize(id).strip().startsWith(PREFIX);
    }
}
