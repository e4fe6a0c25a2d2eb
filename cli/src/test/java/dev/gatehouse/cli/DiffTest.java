package dev.gatehouse.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiffTest {

    /** The rule changed in the copy: one tool's name stops being found in the access table. */
    static final String RULE = "ok if is_object(row)";
    static final String CHANGED = "ok if {\n\tis_object(row)\n\tinput.tool != \"t3_thread_list\"\n}";

    @TempDir
    Path tmp;

    @Test
    void listsExactlyTheCellsTheChangedRuleMoves() throws Exception {
        Path changed = Repo.checkoutCopy(tmp);
        Path tools = changed.resolve("tools/tools.rego");
        String rego = Files.readString(tools);
        assertTrue(rego.contains(RULE), "the test's anchor rule is in policies/tools/tools.rego; update DiffTest.RULE");
        Files.writeString(tools, rego.replace(RULE, CHANGED));
        Path html = tmp.resolve("diff.html");

        Repo.Result r = Repo.cli("diff", "--from", Repo.POLICIES.toString(), "--to", changed.toString(),
                "--out", html.toString());

        assertEquals(0, r.rc(), r.err());
        List<String> rows = r.out().lines().filter(l -> l.contains(" | t3_thread_list ")).toList();
        assertEquals(MatrixTest.profiles(), rows.size(), r.out());
        rows.forEach(row -> assertTrue(row.contains("unknown_tool"), row));
        assertTrue(r.out().contains(MatrixTest.profiles() + " changed cell(s):"), "only that tool's cells change:\n" + r.out());
        String page = Files.readString(html);
        assertTrue(page.contains(Repo.revision(changed)), "both revisions on the page");
        assertEquals(MatrixTest.profiles(), page.split("<td><code>t3_thread_list</code>", -1).length - 1);
    }

    /** An empty or cut-off bundle is refused saying so (a new user's trial: "not a bundle … : null"). */
    @Test
    void anEmptyOrTruncatedBundleIsRefusedSayingSo() throws Exception {
        byte[] whole = Files.readAllBytes(Repo.ROOT.resolve("target/bundle/bundle.tar.gz"));
        for (int length : new int[] {0, whole.length / 2}) {
            Path bundle = tmp.resolve("cut-" + length + ".tar.gz");
            Files.write(bundle, java.util.Arrays.copyOf(whole, length));
            Repo.Result r = Repo.cli("diff", "--from", bundle.toString(), "--to", Repo.POLICIES.toString());
            assertEquals(2, r.rc(), r.out() + r.err());
            assertTrue(r.err().contains("not a bundle (.tar.gz)"), r.err());
            assertTrue(!r.err().contains("null"), r.err());
        }
    }

    @Test
    void samePolicyNoChanges() throws Exception {
        Path copy = Repo.checkoutCopy(tmp);

        Repo.Result r = Repo.cli("diff", "--from", Repo.POLICIES.toString(), "--to", copy.toString());

        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains("no cell changes"), r.out());
        assertTrue(r.out().contains(Repo.revision(Repo.POLICIES)), "a copy has the same revision");
    }
}
