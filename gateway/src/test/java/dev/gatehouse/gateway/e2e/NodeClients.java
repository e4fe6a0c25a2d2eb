package dev.gatehouse.gateway.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs the Node end-to-end clients of src/test/e2e, installing them first with {@code npm ci} from the lock file. */
final class NodeClients {

    /** A finished run: exit code and everything it printed. */
    record Run(int exitCode, String output) {
    }

    static Path directory() {
        return Path.of(System.getProperty("gatehouse.e2e.dir", "src/test/e2e"));
    }

    /** The conformance runner's folder (conformance/ at the repository root). */
    static Path conformanceDirectory() {
        return Path.of(System.getProperty("gatehouse.conformance.dir", "../conformance"));
    }

    /**
     * {@code npm ci} in {@code directory}: exactly the locked versions, into its node_modules. Skipped when this
     * method already installed the same lock file there (a stamp in node_modules holds the lock's SHA-256; npm ci
     * deletes node_modules, stamp included), so the test classes of one run install once.
     */
    static void install(Path directory) throws IOException, InterruptedException {
        String lock = sha256(Files.readAllBytes(directory.resolve("package-lock.json")));
        Path stamp = directory.resolve("node_modules/.gatehouse-installed-lock");
        if (Files.isRegularFile(stamp) && Files.readString(stamp).equals(lock)) {
            return;
        }
        Run run = run(directory, List.of("npm", "ci", "--no-audit", "--no-fund"), Map.of(), 600);
        if (run.exitCode() != 0) {
            throw new AssertionError("npm ci in " + directory + " failed:\n" + run.output());
        }
        Files.writeString(stamp, lock);
    }

    private static String sha256(byte[] bytes) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs {@code command} in src/test/e2e with extra environment, killing it after {@code timeoutSeconds}. */
    static Run run(List<String> command, Map<String, String> env, long timeoutSeconds)
            throws IOException, InterruptedException {
        return run(directory(), command, env, timeoutSeconds);
    }

    /** Runs {@code command} in {@code directory} with extra environment, killing it after {@code timeoutSeconds}. */
    static Run run(Path directory, List<String> command, Map<String, String> env, long timeoutSeconds)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true);
        builder.environment().putAll(env);
        Process process = builder.start();
        byte[][] output = new byte[1][];
        Thread reader = new Thread(() -> {
            try {
                output[0] = process.getInputStream().readAllBytes();
            } catch (IOException e) {
                output[0] = ("output lost: " + e).getBytes(StandardCharsets.UTF_8);
            }
        });
        reader.start();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        reader.join(10_000);
        String text = output[0] == null ? "" : new String(output[0], StandardCharsets.UTF_8);
        return new Run(process.isAlive() ? -1 : process.exitValue(), text);
    }

    private NodeClients() {
    }
}
