package dev.gatehouse.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.review.PolicySource;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    /**
     * An empty or cut-off bundle is refused saying so (a new user's trial: "not a bundle … : null"), also one cut
     * within its gzip trailer, whose tar is whole.
     */
    @Test
    void anEmptyOrTruncatedBundleIsRefusedSayingSo() throws Exception {
        byte[] whole = Files.readAllBytes(Repo.ROOT.resolve("target/bundle/bundle.tar.gz"));
        for (int length : new int[] {0, whole.length / 2, whole.length - 9, whole.length - 1}) {
            Path bundle = tmp.resolve("cut-" + length + ".tar.gz");
            Files.write(bundle, java.util.Arrays.copyOf(whole, length));
            Repo.Result r = Repo.cli("diff", "--from", bundle.toString(), "--to", Repo.POLICIES.toString());
            assertEquals(2, r.rc(), r.out() + r.err());
            assertTrue(r.err().contains("not a bundle (.tar.gz)"), r.err());
            assertTrue(!r.err().contains("null"), r.err());
        }
    }

    /**
     * An {@code --out} that cannot be written (found by a new user's trial: a raw java.nio.file.FileSystemException)
     * is one line naming the path and why, exit 2, and no table before it: a directory, a path below a file (its
     * parent cannot exist), one deeper below it, a device that is full, a directory the user may not write.
     */
    @Test
    void anOutThatCannotBeWrittenIsOneLineNamingIt() throws Exception {
        Path file = Files.writeString(tmp.resolve("file.txt"), "x");
        Map<Path, String> outs = new LinkedHashMap<>();
        outs.put(tmp, "is a directory");
        outs.put(file.resolve("diff.html"), "not a directory: " + file);
        outs.put(file.resolve("a/b/diff.html"), "not a directory (" + file.resolve("a") + ")");
        if (Files.isWritable(Path.of("/dev/full"))) {
            outs.put(Path.of("/dev/full"), "no space left on device");
        }
        Path locked = Files.createDirectory(tmp.resolve("locked"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("r-x------")));
        if (!Files.isWritable(locked)) { // root writes anywhere
            outs.put(locked.resolve("diff.html"), "permission denied");
        }
        for (Map.Entry<Path, String> out : outs.entrySet()) {
            Repo.Result r = Repo.cli("diff", "--from", Repo.POLICIES.toString(), "--to", Repo.POLICIES.toString(),
                    "--out", out.getKey().toString());

            assertEquals(2, r.rc(), out + ": " + r.out() + r.err());
            assertEquals(List.of("gatehouse: cannot write " + out.getKey() + ": " + out.getValue()),
                    r.err().lines().toList(), out.toString());
            assertEquals("", r.out(), out.toString());
        }
    }

    /**
     * A profiles file that is empty, not UTF-8 (found by a new user's trial: "Input length = 1") or has a member
     * given twice is refused before anything is evaluated: exit 2, one line naming the file and what is wrong.
     */
    @Test
    void aProfilesFileThatIsEmptyNotUtf8OrAmbiguousIsRefused() throws Exception {
        Map<byte[], String> contents = new LinkedHashMap<>();
        contents.put(new byte[0], " is empty");
        contents.put(" \n\t".getBytes(StandardCharsets.UTF_8), " is empty (only white space)");
        contents.put("{\"profiles\": [{\"name\": \"caf\u00e9\"}]}".getBytes(StandardCharsets.ISO_8859_1),
                " is not valid UTF-8: byte offset 27 of the file (0xE9)");
        contents.put(("{\"profiles\": [], \"profiles\": []}").getBytes(StandardCharsets.UTF_8),
                "Duplicate field 'profiles'");
        for (Map.Entry<byte[], String> content : contents.entrySet()) {
            Path profiles = Files.write(tmp.resolve("profiles.json"), content.getKey());

            Repo.Result r = Repo.cli("diff", "--from", Repo.POLICIES.toString(), "--to", Repo.POLICIES.toString(),
                    "--profiles", profiles.toString());

            assertEquals(2, r.rc(), content.getValue() + ": " + r.out() + r.err());
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().contains(profiles.toString()) && r.err().contains(content.getValue()), r.err());
        }
    }

    /**
     * A policies directory whose access table or a tool schema is empty, not UTF-8 or repeats a member is refused
     * naming the file, before anything is evaluated (a diff input as the profiles file is).
     */
    @Test
    void aPolicyDirectoryWithAFileThatIsNotTextOrJsonIsRefused() throws Exception {
        Path copy = Repo.checkoutCopy(tmp);
        Path table = copy.resolve("gatehouse/access_table/data.json");
        Path schema;
        try (var schemas = Files.list(PolicySource.schemasBeside(copy))) {
            schema = schemas.sorted().findFirst().orElseThrow();
        }
        String tableText = Files.readString(table);
        Map<Runnable, String> faults = new LinkedHashMap<>();
        faults.put(() -> write(table, new byte[0]), table + " is empty");
        faults.put(() -> write(table, new byte[] {'{', (byte) 0xFF, '}'}), table + " is not valid UTF-8: byte offset 1");
        faults.put(() -> write(schema, "{\"type\": \"object\", \"type\": \"array\"}".getBytes(
                StandardCharsets.UTF_8)), "Duplicate field 'type'");
        for (Map.Entry<Runnable, String> fault : faults.entrySet()) { // one fault at a time, the other file as it was
            write(table, tableText.getBytes(StandardCharsets.UTF_8));
            Files.copy(Repo.ROOT.resolve("schemas/tools").resolve(schema.getFileName().toString()), schema,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            fault.getKey().run();

            Repo.Result r = Repo.cli("diff", "--from", Repo.POLICIES.toString(), "--to", copy.toString());

            assertEquals(2, r.rc(), fault.getValue() + ": " + r.out() + r.err());
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().contains(fault.getValue()), r.err());
            assertEquals("", r.out());
        }
    }

    private static void write(Path file, byte[] bytes) {
        try {
            Files.write(file, bytes);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
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
