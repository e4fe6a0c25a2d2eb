package dev.gatehouse.gateway.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.policy.TestBundle;
import dev.gatehouse.gateway.policy.api.KeptRevision;
import dev.gatehouse.gateway.policy.bundle.BundleArchive;
import dev.gatehouse.gateway.policy.bundle.SignedBundles;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdp;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdpConfiguration;
import dev.gatehouse.review.Html;
import dev.gatehouse.review.Matrix;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The revisions the embedded engine keeps for the policy page and replay, with real signed bundles: the last
 * {@code kept-revisions} activated, newest first, each still deciding as when it was served; a refused offer is
 * listed with its reason and changes nothing; the matrices of two kept revisions, computed by the review library on
 * each revision's own engine, show the policy change between them as changed cells.
 */
class PolicyRevisionsTest {

    @TempDir
    static Path dir;
    private static SignedBundles.Keys keys;
    private static Path r1;
    private static Path r2;
    private static Path r3;
    private static Path otherKey;

    @BeforeAll
    static void build() throws Exception {
        keys = SignedBundles.keys(dir.resolve("keys"));
        Path policies = SignedBundles.policiesCopy(dir.resolve("src"));
        r1 = SignedBundles.build(policies, dir.resolve("r1.tar.gz"), true, "r1", keys.privateKey(), "{\"iat\": 1000}");
        r3 = SignedBundles.build(policies, dir.resolve("r3.tar.gz"), true, "r3", keys.privateKey(), "{\"iat\": 3000}");
        // r2: a thread may never hold preview (its smoke set, written for the real policy, is left out)
        Path changed = SignedBundles.policiesCopy(dir.resolve("changed"));
        Path capabilities = changed.resolve("gatehouse/capabilities/data.json");
        ObjectNode data = (ObjectNode) PolicyJson.MAPPER.readTree(capabilities.toFile());
        ((ArrayNode) data.with("never_held").withArray("thread")).add("preview");
        Files.writeString(capabilities, PolicyJson.write(data));
        Path smoke = changed.resolve("gatehouse/smoke/data.json");
        ObjectNode cases = (ObjectNode) PolicyJson.MAPPER.readTree(smoke.toFile());
        cases.putArray("cases");
        Files.writeString(smoke, PolicyJson.write(cases));
        r2 = SignedBundles.build(changed, dir.resolve("r2.tar.gz"), true, "r2", keys.privateKey(), "{\"iat\": 2000}");
        otherKey = SignedBundles.build(policies, dir.resolve("other.tar.gz"), true, "r9",
                SignedBundles.keys(dir.resolve("other-keys")).privateKey(), "{\"iat\": 9000}");
    }

    @Test
    void theLastRevisionsAreKeptRefusalsListedAndTheMatrixDiffShowsThePolicyChange() throws Exception {
        EmbeddedPdpConfiguration configuration = TestBundle.configuration(r1);
        configuration.setVerificationKey(keys.publicKey().toString());
        configuration.setPoolSize(1);
        configuration.setKeptRevisions(2);
        EmbeddedPdp pdp = new EmbeddedPdp(configuration);
        pdp.offer(BundleArchive.read(r2), "file r2");
        pdp.offer(BundleArchive.read(otherKey), "file other");
        assertEquals(List.of("r2", "r1"), pdp.kept().stream().map(KeptRevision::revision).toList());
        assertEquals(1, pdp.refusals().size());
        assertTrue(pdp.refusals().get(0).reason().contains("refused"), pdp.refusals().get(0).reason());
        assertEquals("file r2", pdp.kept().get(0).source());

        RevisionMatrices matrices = new RevisionMatrices();
        Matrix before = matrices.of(pdp.kept().get(1));
        Matrix after = matrices.of(pdp.kept().get(0));
        List<Matrix.Change> changes = Matrix.changes(before, after);
        assertFalse(changes.isEmpty(), "r2 takes preview from every thread");
        assertTrue(changes.stream().allMatch(c -> c.tool().startsWith("preview")), changes.toString());
        assertTrue(Html.diff(before, after, changes).contains(changes.size() + " changed cells."));
        // caller names and reason codes break only at underscores: each one is followed by a <wbr>
        java.util.regex.Matcher words = java.util.regex.Pattern.compile(
                "<th scope=\"col\" title=\"[^\"]*\">([^<]*(?:<wbr>[^<]*)*)<span"
                        + "|<li title=\"[^\"]*\"><code>(.*?)</code>").matcher(Html.matrix(after));
        int underscores = 0;
        while (words.find()) {
            String word = words.group(1) != null ? words.group(1) : words.group(2);
            assertFalse(word.replace("_<wbr>", "").contains("_"), word);
            underscores += word.split("_<wbr>", -1).length - 1;
        }
        assertTrue(underscores > 0, "the matrix has names and codes with underscores");

        pdp.offer(BundleArchive.read(r3), "file r3");
        assertEquals(List.of("r3", "r2"), pdp.kept().stream().map(KeptRevision::revision).toList(),
                "at most kept-revisions, the oldest leaving first");
        assertEquals(after.cell(after.profiles().get(0), after.tools().get(0)).summary(),
                matrices.of(pdp.kept().get(1)).cell(after.profiles().get(0), after.tools().get(0)).summary(),
                "a retired revision still decides as when it served");
        assertTrue(Matrix.changes(matrices.of(pdp.kept().get(1)), matrices.of(pdp.kept().get(0))).size()
                == changes.size(), "r3 gives preview back");
        pdp.close();
    }
}
