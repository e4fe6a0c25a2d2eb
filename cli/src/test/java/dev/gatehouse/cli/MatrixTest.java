package dev.gatehouse.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.review.Calls;
import dev.gatehouse.review.Matrix;
import dev.gatehouse.review.Opa;
import dev.gatehouse.review.PolicySource;
import dev.gatehouse.review.Profiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MatrixTest {

    @TempDir
    Path tmp;

    static int tools() throws Exception {
        try (PolicySource p = PolicySource.directory(Repo.POLICIES)) {
            return Calls.of(p).tools().size();
        }
    }

    static int profiles() throws Exception {
        return Opa.JSON.readTree(Repo.PROFILES.toFile()).path("profiles").size();
    }

    static int cells(String html) {
        return (int) Pattern.compile("<td class=\"cell ").matcher(html).results().count();
    }

    @Test
    void everyProfileTimesEveryToolOfTheAccessTable() throws Exception {
        Path out = tmp.resolve("matrix.html");

        Repo.Result r = Repo.cli("matrix", "--out", out.toString(), "--policies", Repo.POLICIES.toString());

        assertEquals(0, r.rc(), r.err());
        String html = Files.readString(out);
        assertEquals(profiles() * tools(), cells(html));
        String revision = Repo.exec(List.of(Repo.ROOT.resolve("scripts/source-revision.sh").toString())).trim();
        assertTrue(html.contains("<title>Gatehouse policy matrix — revision " + revision + "</title>"), "revision in the title");
        assertTrue(!html.contains("<script"), "readable without scripts");
        // allowed and denied differ by a text mark as well as by colour
        assertTrue(html.contains("<span class=\"mark\">✘ DENY</span>"));
    }

    /** An --out that is a directory is one line naming it, exit 2, as for diff (DiffTest has the other faults). */
    @Test
    void anOutThatIsADirectoryIsOneLineNamingIt() {
        Repo.Result r = Repo.cli("matrix", "--out", tmp.toString(), "--policies", Repo.POLICIES.toString());

        assertEquals(2, r.rc(), r.out() + r.err());
        assertEquals(List.of("gatehouse: cannot write " + tmp + ": is a directory"), r.err().lines().toList());
        assertEquals("", r.out());
    }

    @Test
    void cellsAreThePolicysOwnDecisions() throws Exception {
        try (PolicySource p = PolicySource.directory(Repo.POLICIES)) {
            Matrix m = Matrix.compute(Repo.opa(), p, Profiles.load(Repo.PROFILES));
            JsonNode args = Opa.JSON.readTree(Repo.PROFILES.toFile()).path("arguments");
            JsonNode doc = Opa.JSON.readTree(Repo.PROFILES.toFile());
            Calls calls = Calls.of(p);
            for (int i = 0; i < m.profiles().size(); i += 4) {
                Matrix.Profile profile = m.profiles().get(i);
                for (Matrix.Tool tool : m.tools()) {
                    var input = doc.path("profiles").path(i).path("input").deepCopy();
                    ((com.fasterxml.jackson.databind.node.ObjectNode) input).put("tool", tool.name())
                            .set("arguments", args.path(tool.name()).isMissingNode()
                                    ? Opa.JSON.createObjectNode() : args.get(tool.name()));
                    JsonNode d = Repo.opa().eval(p, GatehouseCli.DECISION,
                            calls.input((com.fasterxml.jackson.databind.node.ObjectNode) input));
                    Matrix.Cell c = m.cell(profile, tool);
                    assertEquals(d.path("allow").asBoolean(), c.allow(), profile.name() + " × " + tool.name());
                    assertEquals(d.path("obligations"), c.obligations(), profile.name() + " × " + tool.name());
                }
            }
        }
    }

    /** The cells carry the facts the gateway adds (argument keys): a full thread caller may call nearly every tool. */
    @Test
    void aFullThreadCallerIsAllowedNearlyEverywhere() throws Exception {
        try (PolicySource p = PolicySource.directory(Repo.POLICIES)) {
            Matrix m = Matrix.compute(Repo.opa(), p, Profiles.load(Repo.PROFILES));
            Matrix.Profile full = m.profiles().get(0);
            long allowed = m.tools().stream().filter(tool -> m.cell(full, tool).allow()).count();
            assertTrue(allowed >= m.tools().size() - 2, full.name() + ": " + allowed + " of " + m.tools().size());
        }
    }

    @Test
    void aBundleGivesItsManifestRevision() throws Exception {
        Path bundle = tmp.resolve("rego-bundle.tar.gz");
        Repo.exec(List.of(Repo.opa().binary().toString(), "build", "-b", Repo.POLICIES.toString(),
                "--revision", "review-test-revision", "-o", bundle.toString()));
        Path out = tmp.resolve("matrix.html");

        Repo.Result r = Repo.cli("matrix", "--out", out.toString(), "--bundle", bundle.toString());

        assertEquals(0, r.rc(), r.err());
        String html = Files.readString(out);
        assertTrue(html.contains("<title>Gatehouse policy matrix — revision review-test-revision</title>"));
        assertEquals(profiles() * tools(), cells(html));
    }
}
