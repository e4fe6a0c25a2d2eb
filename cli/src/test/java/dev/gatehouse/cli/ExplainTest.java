package dev.gatehouse.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.review.Opa;
import dev.gatehouse.review.Shell;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExplainTest {

    @TempDir
    Path tmp;

    /** What each {@code explain} of the test printed: the input files it names are deleted after the test. */
    private final List<String> printed = new ArrayList<>();

    private Repo.Result explain(String... args) {
        String[] command = new String[args.length + 1];
        command[0] = "explain";
        System.arraycopy(args, 0, command, 1, args.length);
        Repo.Result result = Repo.cli(command);
        printed.add(result.out());
        return result;
    }

    private static List<String> explainFiles() throws IOException {
        try (Stream<Path> files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return files.filter(f -> f.getFileName().toString().startsWith("gatehouse-explain-"))
                    .map(f -> f.toAbsolutePath().toString()).toList();
        }
    }

    /**
     * Deletes the input files {@code explain} wrote for its reproducing command: a user runs that command later, a
     * test has run it by now, and the files would pile up in the system's temporary folder.
     */
    @AfterEach
    void deleteWrittenInputs() throws IOException {
        Pattern named = Pattern.compile("(/\\S*gatehouse-explain-[^\\s)]*\\.json)");
        for (String out : printed) {
            Matcher file = named.matcher(out);
            while (file.find()) {
                Files.deleteIfExists(Path.of(file.group(1)));
            }
        }
    }

    @Test
    void explainsADenialWithItsFamilyAndAReproducingCommand() throws Exception {
        Path input = tmp.resolve("input.json");
        Opa.JSON.writeValue(input.toFile(), Repo.input("no_such_tool", Opa.JSON.createObjectNode()));

        Repo.Result r = explain("--input", input.toString(), "--policies", Repo.POLICIES.toString());

        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains("decision:    DENY"), r.out());
        assertTrue(r.out().contains("unknown_tool  [tools"), "the code is mapped to its family:\n" + r.out());
        assertTrue(r.out().contains("failed rule families: tools"), r.out());
        assertTrue(r.out().contains(Repo.revision(Repo.POLICIES)), r.out());
        assertTrue(r.out().contains("trace (opa eval --explain=fails):"), r.out());
        assertTrue(r.out().contains("Enter data.gatehouse.authz.decision"), "OPA's own trace:\n" + r.out());

        String command = r.out().lines().dropWhile(l -> !l.equals("reproduce:")).skip(1).findFirst().orElseThrow().trim();
        assertTrue(command.contains("eval --explain=fails"), command);
        String reproduced = Repo.exec(List.of("bash", "-c", command));
        assertTrue(reproduced.contains("unknown_tool"), "the printed command reproduces the decision:\n" + reproduced);
    }

    /** A call written by hand gets the facts the gateway derives: a look-alike identity key is one, as it decides. */
    @Test
    void explainsAHandWrittenCallWithTheGatewaysFacts() throws Exception {
        Path input = tmp.resolve("input.json");
        var arguments = Opa.JSON.createObjectNode().put("path", "заметки/ノート.md").put("\u0430gentI\u0307d", "a2");
        Opa.JSON.writeValue(input.toFile(), Repo.input("wiki_read", arguments));

        Repo.Result r = explain("--input", input.toString(), "--policies", Repo.POLICIES.toString());

        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains("derived the facts of the arguments as the gateway does"), r.out());
        assertTrue(r.out().contains("identity_argument  [arguments"), r.out());
    }

    @Test
    void explainsADecisionLogRecordByItsInput() throws Exception {
        var record = Opa.JSON.createObjectNode();
        record.put("decision_id", "00000000-0000-4000-8000-000000000001");
        record.set("input", Repo.input("no_such_tool", Opa.JSON.createObjectNode()));
        Path file = tmp.resolve("record.json");
        Opa.JSON.writeValue(file.toFile(), record);

        List<String> before = explainFiles();
        Repo.Result r = explain("--input", file.toString());

        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains("unknown_tool"), r.out());
        assertTrue(r.out().contains("the record's input was written to"), r.out());
        // once the record's input also needed the derived facts, a second file was written and the first, named
        // nowhere, was left in the temporary folder: every file the call wrote is one its output names
        Set<String> named = Pattern.compile("(/\\S*gatehouse-explain-[^\\s)]*\\.json)").matcher(r.out()).results()
                .map(m -> m.group(1)).collect(Collectors.toSet());
        Set<String> written = new HashSet<>(explainFiles());
        written.removeAll(before);
        assertEquals(written, named, r.out());
    }

    @Test
    void refusesTheWasmBundleWithAHint() throws Exception {
        Path input = tmp.resolve("input.json");
        Opa.JSON.writeValue(input.toFile(), Repo.input("no_such_tool", Opa.JSON.createObjectNode()));
        Path wasm = tmp.resolve("bundle.tar.gz");
        Repo.exec(List.of(Repo.opa().binary().toString(), "build", "-t", "wasm", "-e", "gatehouse/authz/decision",
                "-b", Repo.POLICIES.toString(), "-o", wasm.toString()));

        Repo.Result r = explain("--input", input.toString(), "--bundle", wasm.toString());

        assertEquals(2, r.rc());
        assertTrue(r.err().contains("rego-bundle.tar.gz"), r.err());
        assertTrue(Files.exists(wasm));
    }

    /**
     * A file that holds no JSON object (found by a new user's trial: an empty file, {@code null} or an array was
     * explained as a DENY and exit 0) is bad input: exit 2 with one line naming the file, nothing evaluated.
     */
    @Test
    void aFileThatIsNoJsonObjectIsRefusedWithExitTwo() throws Exception {
        for (String content : List.of("null", "[1,2,3]", "[]", "\"text\"", "42", "true")) {
            Path input = tmp.resolve("not-an-input.json");
            Files.writeString(input, content);

            Repo.Result r = explain("--input", input.toString(), "--policies", Repo.POLICIES.toString());

            assertEquals(2, r.rc(), content + ": " + r.out() + r.err());
            assertTrue(r.err().contains("is not a decision input"), content + ": " + r.err());
            assertFalse(r.out().contains("decision:"), content + ": " + r.out());
        }
    }

    /**
     * A file with more than one JSON value, or broken JSON (found by a new user's trial: the rest was ignored, and
     * the error carried the parser's "Source: REDACTED" note), is refused with exit 2 and one line saying where, in
     * words of our own for a second value.
     */
    @Test
    void trailingOrBrokenJsonIsRefusedSayingWhere() throws Exception {
        String call = Repo.input("no_such_tool", Opa.JSON.createObjectNode()).toString();
        for (String content : List.of(call + " {\"x\":1}", call + " ]", "{\"tool\":", "{\"tool\" \"x\"}")) {
            Path input = tmp.resolve("broken.json");
            Files.writeString(input, content);

            Repo.Result r = explain("--input", input.toString(), "--policies", Repo.POLICIES.toString());

            assertEquals(2, r.rc(), content + ": " + r.out() + r.err());
            assertTrue(r.err().contains("cannot read " + input + " as JSON (line 1, column "), r.err());
            assertFalse(r.err().contains("REDACTED") || r.err().lines().count() > 1, r.err());
            // nor the mapper's classes and settings (a later trial: "bound as `com.fasterxml...`")
            assertFalse(r.err().contains("com.fasterxml") || r.err().contains("Feature"), r.err());
        }
        Path two = Files.writeString(tmp.resolve("two.json"), "{\"a\":1}{\"b\":2}");
        Repo.Result r = explain("--input", two.toString(), "--policies", Repo.POLICIES.toString());
        assertEquals(2, r.rc(), r.out() + r.err());
        assertEquals(List.of("gatehouse: cannot read " + two + " as JSON (line 1, column 8): a second JSON value starts"
                + " there; the file holds one"), r.err().lines().toList());
    }

    /** An input that is not there, or is a directory, is one line saying so (not a java.nio class name), exit 2. */
    @Test
    void aMissingInputOrADirectoryIsOneLineSayingSo() {
        Path missing = tmp.resolve("no-such.json");
        Map<Path, String> inputs = Map.of(missing, "no such file or directory", tmp, "is a directory");
        for (Map.Entry<Path, String> input : inputs.entrySet()) {
            Repo.Result r = explain("--input", input.getKey().toString(), "--policies", Repo.POLICIES.toString());

            assertEquals(2, r.rc(), r.out() + r.err());
            assertEquals(List.of("gatehouse: cannot read " + input.getKey() + ": " + input.getValue()),
                    r.err().lines().toList());
        }
    }

    /** An empty file (found by a new user's trial: read as no input) is refused saying so, exit 2. */
    @Test
    void anEmptyFileIsRefusedSayingSo() throws Exception {
        for (String content : List.of("", " \n", "\n\n", "\t")) {
            Path input = Files.writeString(tmp.resolve("empty.json"), content);

            Repo.Result r = explain("--input", input.toString(), "--policies", Repo.POLICIES.toString());

            assertEquals(2, r.rc(), content + ": " + r.out() + r.err());
            assertEquals(List.of("gatehouse: " + input + " is empty" + (content.isEmpty() ? "" : " (only white space)")),
                    r.err().lines().toList());
            assertEquals("", r.out());
        }
    }

    /**
     * A file that is not UTF-8 (found by a new user's trial: "Input length = 1") is refused with the byte offset of
     * the first byte that is not: a byte UTF-8 never has, an overlong form (which Jackson alone reads as '/'), a
     * surrogate, a lone continuation byte, a code point above U+10FFFF, a sequence cut off at the end of the file.
     */
    @Test
    void aFileThatIsNotUtf8IsRefusedWithTheByteOffset() throws Exception {
        byte[] head = "{\"tool\": \"".getBytes(StandardCharsets.US_ASCII);
        List<int[]> faults = List.of(new int[] {0xFF}, new int[] {0xC0, 0xAF}, new int[] {0xED, 0xA0, 0x80},
                new int[] {0x80}, new int[] {0xF4, 0x90, 0x80, 0x80}, new int[] {0xE2, 0x82});
        for (int[] fault : faults) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            bytes.writeBytes(head);
            for (int b : fault) {
                bytes.write(b);
            }
            if (fault.length != 2 || fault[0] != 0xE2) { // the cut-off sequence ends the file
                bytes.writeBytes("\"}".getBytes(StandardCharsets.US_ASCII));
            }
            Path input = Files.write(tmp.resolve("latin.json"), bytes.toByteArray());

            Repo.Result r = explain("--input", input.toString(), "--policies", Repo.POLICIES.toString());

            assertEquals(2, r.rc(), r.out() + r.err());
            assertEquals(List.of("gatehouse: " + input + " is not valid UTF-8: byte offset " + head.length
                    + String.format(" of the file (0x%02X)", fault[0])), r.err().lines().toList());
        }
    }

    /** A member given twice, at the top or deeper (which one would the gateway have seen?), is refused naming it. */
    @Test
    void aMemberGivenTwiceIsRefusedNamingIt() throws Exception {
        String call = Repo.input("no_such_tool", Opa.JSON.createObjectNode()).toString();
        Map<String, String> contents = new LinkedHashMap<>();
        contents.put(call.replaceFirst("\\{", "{\"tool\":\"wiki_read\","), "'tool'");
        contents.put(call.replaceFirst("\"caller\":\\{", "$0\"kind\":\"thread\","), "'kind'");
        contents.put("{\"decision_id\":\"x\",\"input\":" + call + ",\"input\":{}}", "'input'");
        for (Map.Entry<String, String> content : contents.entrySet()) {
            Path input = Files.writeString(tmp.resolve("twice.json"), content.getKey());

            Repo.Result r = explain("--input", input.toString(), "--policies", Repo.POLICIES.toString());

            assertEquals(2, r.rc(), content.getKey() + ": " + r.out() + r.err());
            assertTrue(r.err().startsWith("gatehouse: cannot read " + input + " as JSON (line 1, column "), r.err());
            assertTrue(r.err().contains("Duplicate field " + content.getValue()), r.err());
        }
    }

    /**
     * An explain that fails (no such bundle, two sources, opa failing on the decision or on the trace) leaves no
     * input file behind (found by a new user's trial: a record's input file was written before the policy was
     * read, and stayed in the temporary folder named nowhere); for a record and for a call written by hand.
     */
    @Test
    void aFailedExplainLeavesNoInputFileBehind() throws Exception {
        ObjectNode call = Repo.input("wiki_read", Opa.JSON.createObjectNode().put("path", "notes/plan.md"));
        ObjectNode record = Opa.JSON.createObjectNode().put("decision_id", "00000000-0000-4000-8000-000000000009");
        record.set("input", call.deepCopy().put("tool", "no_such_tool"));
        Path failing = fakeOpa("echo 'opa: broken' >&2; exit 3");
        Path traceFails = fakeOpa("case \"$*\" in *--explain*) echo 'opa: no trace' >&2; exit 3;; esac; exec "
                + Shell.quote(Repo.opa().binary().toString()) + " \"$@\"");
        List<List<String>> failures = List.of(List.of("--bundle", tmp.resolve("none.tar.gz").toString()),
                List.of("--bundle", tmp.resolve("none.tar.gz").toString(), "--policies", Repo.POLICIES.toString()),
                List.of("--opa", failing.toString()), List.of("--opa", traceFails.toString()));
        for (ObjectNode doc : List.of(call, record)) {
            Path input = tmp.resolve("input.json");
            Opa.JSON.writeValue(input.toFile(), doc);
            for (List<String> failure : failures) {
                List<String> before = explainFiles();
                List<String> args = new ArrayList<>(List.of("--input", input.toString()));
                args.addAll(failure);

                Repo.Result r = explain(args.toArray(String[]::new));

                assertEquals(2, r.rc(), failure + ": " + r.out() + r.err());
                assertEquals(before, explainFiles(), failure + " left a file: " + r.out() + r.err());
            }
        }
    }

    /**
     * No input is in the temporary folder while opa runs (it goes through opa's standard input), so a signal that
     * ends the CLI then leaves none; the only file is the one the reproducing command names, written at the end.
     */
    @Test
    void noInputFileExistsWhileOpaRuns() throws Exception {
        Path seen = tmp.resolve("seen.txt");
        Path watching = fakeOpa("ls " + Shell.quote(System.getProperty("java.io.tmpdir")) + " | grep -E "
                + "'^gatehouse-(explain|input)-' >> " + Shell.quote(seen.toString()) + "; exec "
                + Shell.quote(Repo.opa().binary().toString()) + " \"$@\"");
        Path input = tmp.resolve("input.json");
        Opa.JSON.writeValue(input.toFile(), Repo.input("wiki_read", Opa.JSON.createObjectNode().put("path", "a.md")));
        Set<String> before = explainFiles().stream().map(f -> Path.of(f).getFileName().toString())
                .collect(Collectors.toSet());

        Repo.Result r = explain("--input", input.toString(), "--opa", watching.toString());

        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains("derived the facts"), r.out());
        List<String> during = Files.readAllLines(seen).stream().filter(f -> !before.contains(f)).toList();
        assertEquals(List.of(), during, "files in the temporary folder while opa ran");
    }

    /** A record's decision id that cannot name a file (a path, too long) names it "record", not an error. */
    @Test
    void aRecordWhoseIdCannotNameAFileIsExplained() throws Exception {
        for (String id : List.of("../../etc/x", "a/b", "x".repeat(300), "")) {
            ObjectNode record = Opa.JSON.createObjectNode().put("decision_id", id);
            record.set("input", Repo.input("no_such_tool", Opa.JSON.createObjectNode()));
            Path file = tmp.resolve("record.json");
            Opa.JSON.writeValue(file.toFile(), record);

            Repo.Result r = explain("--input", file.toString(), "--policies", Repo.POLICIES.toString(), "--trace",
                    "off");

            assertEquals(0, r.rc(), id + ": " + r.err());
            assertTrue(r.out().contains("gatehouse-explain-record-"), r.out());
        }
    }

    /** An executable standing in for opa that runs {@code script}. */
    private Path fakeOpa(String script) throws IOException {
        Path file = Files.createTempFile(tmp, "opa-", ".sh");
        Files.writeString(file, "#!/bin/sh\n" + script + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
        return file;
    }
}
