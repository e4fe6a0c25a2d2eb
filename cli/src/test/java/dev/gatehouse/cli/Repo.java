package dev.gatehouse.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.review.Opa;
import dev.gatehouse.review.PolicySource;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The checkout the tests run against, and a way to run the CLI in-process. */
final class Repo {

    static final Path ROOT = Defaults.root();
    static final Path POLICIES = ROOT.resolve("policies");
    static final Path PROFILES = ROOT.resolve(Defaults.PROFILES);

    private Repo() {
    }

    record Result(int rc, String out, String err) {
    }

    static Result cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = GatehouseCli.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Result(rc, out.toString(), err.toString());
    }

    static Opa opa() {
        return Opa.locate(null);
    }

    /** A decision input: the first caller profile of the review profiles calling {@code tool}. */
    static ObjectNode input(String tool, JsonNode arguments) throws IOException {
        JsonNode doc = Opa.JSON.readTree(PROFILES.toFile());
        ObjectNode input = (ObjectNode) doc.path("profiles").path(0).path("input").deepCopy();
        input.put("tool", tool);
        input.set("arguments", arguments);
        return input;
    }

    /** A copy of the checkout's policies and tool schemas under {@code dir}, laid out as in a checkout. */
    static Path checkoutCopy(Path dir) throws IOException {
        copyTree(POLICIES, dir.resolve("policies"));
        copyTree(ROOT.resolve("schemas/tools"), dir.resolve("schemas/tools"));
        return dir.resolve("policies");
    }

    /** The revision scripts/source-revision.sh gives a checkout whose policies directory is {@code policies}. */
    static String revision(Path policies) {
        return PolicySource.sourceRevision(policies, PolicySource.schemasBeside(policies));
    }

    static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    static String exec(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int rc = p.waitFor();
        if (rc != 0) {
            throw new AssertionError(String.join(" ", command) + " exited with " + rc + ":\n" + out);
        }
        return out;
    }

    static Path target() throws IOException {
        return Files.createDirectories(ROOT.resolve("cli").resolve("target"));
    }
}
