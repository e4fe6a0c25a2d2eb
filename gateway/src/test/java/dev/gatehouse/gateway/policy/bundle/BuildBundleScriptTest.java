package dev.gatehouse.gateway.policy.bundle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.gateway.policy.TestBundle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * scripts/build-bundle.sh takes its paths relative to the caller's directory, as {@code make bench-compare} passes
 * them ({@code --policies bench/target/compare/base/policies}): before, it resolved {@code --policies} and
 * {@code --schemas} only after changing into {@code scripts/}, so every relative path failed ("No such file or
 * directory") and {@code make bench-compare} could not run. Each path argument relative, from the repository and from
 * a directory below it.
 */
class BuildBundleScriptTest {

    @ParameterizedTest(name = "from {0}")
    @CsvSource({
        ".,             policies,    schemas/tools,    gateway/target/build-bundle-script/a.tar.gz",
        "gateway/src,   ../../policies, ../../schemas/tools, ../target/build-bundle-script/b.tar.gz"})
    void relativePathsAreTheCallersOwn(String from, String policies, String schemas, String out) throws Exception {
        Path directory = TestBundle.repo().resolve(from).normalize();
        Path bundle = directory.resolve(out);
        Files.createDirectories(bundle.getParent());
        Files.deleteIfExists(bundle);
        ProcessBuilder builder = new ProcessBuilder(List.of(TestBundle.repo().resolve("scripts/build-bundle.sh")
                .toString(), "--wasm", "--policies", policies, "--schemas", schemas, "--revision", "relative",
                "-o", out)).directory(directory.toFile()).redirectErrorStream(true);
        builder.environment().put("OPA", TestBundle.opa().toString());
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes());
        assertEquals(0, process.waitFor(), output);
        assertTrue(Files.size(bundle) > 0, bundle + " written");
    }
}
