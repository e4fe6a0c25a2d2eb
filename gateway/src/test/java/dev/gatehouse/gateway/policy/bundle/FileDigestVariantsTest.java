package dev.gatehouse.gateway.policy.bundle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Generated variants of the JSON OPA digests in canonical form: seeded random data files (keys and strings from
 * ASCII, control characters, quotes, backslashes, {@code <>&}, U+2028/2029, accented and astral code points; numbers
 * in every spelling JSON allows; nesting; duplicate keys) are signed by the real {@code opa build} and must verify
 * with {@link BundleVerifier}, so each {@link FileDigest} of {@code data.json} equals OPA's. The seed is in the test
 * name; a failing seed reproduces exactly.
 */
class FileDigestVariantsTest {

    private static final String[] PIECES = {"a", "Z", "0", " ", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r",
        "\\t", "\\u0001", "\\u001f", "\\u007f", "<", ">", "&", "\\u2028", "\\u2029", "é", "ß", "\\u00e9", "𐀀",
        "\\ud83d\\ude00", "😀", "\\uffff", "中", ":", ",", "{", "]"};
    private static final String[] NUMBERS = {"0", "-0", "1", "-1", "1.0", "1.50", "1e5", "1E5", "1e+5", "1e-5",
        "-2.5E-3", "12345678901234567890", "0.1", "3.141592653589793238", "100"};

    @TempDir
    Path dir;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4})
    void opaSignedRandomDataVerifies(long seed) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        SignedBundles.Keys keys = SignedBundles.keys(dir.resolve("keys"));
        Path policies = Files.createDirectories(dir.resolve("src/policies/variants"));
        Files.writeString(policies.resolve("data.json"), object(random, 0));
        Path bundle = SignedBundles.buildRaw(policies.getParent(), dir.resolve("b.tar.gz"), "v" + seed,
                keys.privateKey(), null);
        PolicyBundle verified = PolicyBundle.verify(BundleArchive.read(bundle), keys.verification(""));
        assertEquals("v" + seed, verified.revision());
    }

    private static String object(SplittableRandom random, int depth) {
        StringBuilder out = new StringBuilder("{");
        int members = 1 + random.nextInt(depth == 0 ? 40 : 6);
        for (int i = 0; i < members; i++) {
            out.append(i == 0 ? "" : random.nextBoolean() ? "," : " ,\n ");
            String key = depth == 0 && i < 3 ? "\"dup\"" : string(random); // duplicate keys: the last one counts
            out.append(key).append(random.nextBoolean() ? ":" : " : ").append(value(random, depth + 1));
        }
        return out.append("}").toString();
    }

    private static String value(SplittableRandom random, int depth) {
        int kind = random.nextInt(depth > 3 ? 4 : 6);
        return switch (kind) {
            case 0 -> string(random);
            case 1 -> NUMBERS[random.nextInt(NUMBERS.length)];
            case 2 -> random.nextBoolean() ? "true" : "false";
            case 3 -> "null";
            case 4 -> object(random, depth);
            default -> {
                StringBuilder array = new StringBuilder("[");
                int n = random.nextInt(5);
                for (int i = 0; i < n; i++) {
                    array.append(i == 0 ? "" : ",").append(value(random, depth + 1));
                }
                yield array.append("]").toString();
            }
        };
    }

    private static String string(SplittableRandom random) {
        StringBuilder out = new StringBuilder("\"");
        int n = random.nextInt(8);
        for (int i = 0; i < n; i++) {
            out.append(PIECES[random.nextInt(PIECES.length)]);
        }
        return out.append('"').toString();
    }
}
