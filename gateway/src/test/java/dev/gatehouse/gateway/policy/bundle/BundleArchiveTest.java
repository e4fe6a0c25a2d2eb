package dev.gatehouse.gateway.policy.bundle;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A bundle file that cannot be read is refused with a reason a person can act on (a new user's trial found an empty
 * bundle file reported as "not a readable gzipped tar: null" on /health): empty, cut at many lengths (each of the
 * last 64 bytes: a bundle cut by 9 bytes was once accepted, its tar whole before the gzip trailer), or not gzip.
 */
class BundleArchiveTest {

    @Test
    void everyUnreadableFileIsRefusedWithAReasonNeverNull() throws Exception {
        byte[] whole = Files.readAllBytes(Path.of("../target/bundle/bundle.tar.gz"));
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("empty", new byte[0]);
        for (int cut : new int[] {1, 2, 9, 10, 11, whole.length / 4, whole.length / 2}) {
            files.put("cut at " + cut, Arrays.copyOf(whole, cut));
        }
        // Every cut within the last 64 bytes: the tar ends before the gzip trailer, so its files can all be whole.
        for (int cut = whole.length - 64; cut < whole.length; cut++) {
            files.put("cut at " + cut + " of " + whole.length, Arrays.copyOf(whole, cut));
        }
        byte[] noise = new byte[4096];
        new Random(7).nextBytes(noise);
        files.put("noise", noise);
        files.put("text", "not a bundle".getBytes());
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            BundleException refused = assertThrows(BundleException.class,
                    () -> BundleArchive.parse(file.getValue(), "test"), file.getKey());
            assertFalse(refused.getMessage().contains("null"), file.getKey() + ": " + refused.getMessage());
            assertTrue(refused.getMessage().startsWith("bundle test is not a readable gzipped tar: "),
                    file.getKey() + ": " + refused.getMessage());
        }
        assertTrue(assertThrows(BundleException.class, () -> BundleArchive.parse(new byte[0], "test")).getMessage()
                .endsWith("it ends early (an empty or truncated file)"));
        BundleArchive.parse(whole, "test"); // and the whole file is read
    }
}
