package dev.gatehouse.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;

/**
 * Where the policy comes from: a policies directory ({@code opa eval -d dir}) or a bundle .tar.gz
 * ({@code opa eval -b}), e.g. {@code make bundle}'s target/bundle/rego-bundle.tar.gz. The Wasm bundle is refused:
 * {@code opa eval} has no Wasm engine, and the Rego beside its policy.wasm lacks the entry points.
 *
 * <p>Revision: the bundle manifest's, or for a directory the value {@code scripts/source-revision.sh} prints for
 * that tree (SHA-256 over {@code sha256sum} lines of every file, named {@code policies/<path>}, in byte order).
 */
final class PolicySource implements AutoCloseable {

    private final Path path;
    private final boolean bundle;
    private final List<String> opaArgs;
    private final String revision;

    private PolicySource(Path path, boolean bundle, List<String> opaArgs, String revision) {
        this.path = path;
        this.bundle = bundle;
        this.opaArgs = opaArgs;
        this.revision = revision;
    }

    /** {@code --bundle} wins over {@code --policies}; neither means the checkout's policies/. */
    static PolicySource of(Path bundle, Path policies) {
        if (bundle != null && policies != null) {
            throw new CliException("give --bundle or --policies, not both");
        }
        if (bundle != null) {
            return bundle(bundle);
        }
        return directory(policies != null ? policies : Defaults.policies());
    }

    /** A bundle file or a policies directory, whichever {@code spec} names. */
    static PolicySource parse(String spec) {
        Path p = Path.of(spec);
        return Files.isDirectory(p) ? directory(p) : bundle(p);
    }

    static PolicySource directory(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new CliException("not a policies directory: " + dir);
        }
        return new PolicySource(dir, false, List.of("-d", dir.toString()), sourceRevision(dir));
    }

    static PolicySource bundle(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new CliException("no bundle file at " + file);
        }
        Map<String, byte[]> entries = readTarGz(file);
        String revision = "(no manifest revision)";
        byte[] manifest = entries.get(".manifest");
        if (manifest != null) {
            try {
                JsonNode m = Opa.JSON.readTree(manifest);
                if (m.hasNonNull("revision") && !m.get("revision").asText().isEmpty()) {
                    revision = m.get("revision").asText();
                }
            } catch (IOException e) {
                throw new CliException("unreadable bundle manifest in " + file + ": " + e.getMessage());
            }
        }
        if (entries.containsKey("policy.wasm")) {
            // opa eval has no Wasm engine, and the Rego kept beside policy.wasm is what the Wasm compiler left,
            // without the entry points: evaluating it would not be the policy the gateway runs.
            throw new CliException(file + " is a Wasm bundle, which opa eval cannot run; give the Rego bundle built"
                    + " from the same sources (make bundle: target/bundle/rego-bundle.tar.gz) or --policies");
        }
        return new PolicySource(file, true, List.of("-b", file.toString()), revision);
    }

    List<String> opaArgs() {
        return opaArgs;
    }

    String revision() {
        return revision;
    }

    String label() {
        return (bundle ? "bundle " : "policies ") + path;
    }

    /** What {@code opa inspect} reads: the directory or the bundle. */
    Path inspectTarget() {
        return path;
    }

    /** The {@code opa eval} arguments a reader can paste, naming the source as given. */
    String reproduceArgs() {
        return (bundle ? "-b " : "-d ") + Shell.quote(path.toString());
    }

    @Override
    public void close() {
        // nothing held open; a source is AutoCloseable so that one that unpacks can be added without changing callers
    }

    private static Map<String, byte[]> readTarGz(Path file) {
        Map<String, byte[]> entries = new LinkedHashMap<>();
        try (InputStream in = Files.newInputStream(file);
             TarArchiveInputStream tar = new TarArchiveInputStream(new GzipCompressorInputStream(in))) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                if (entry.isFile()) {
                    String name = entry.getName().replaceFirst("^/+", "");
                    entries.put(name, tar.readAllBytes());
                }
            }
        } catch (IOException e) {
            throw new CliException("not a bundle (.tar.gz): " + file + ": " + e.getMessage());
        }
        return entries;
    }

    static String sourceRevision(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            List<String> names = new ArrayList<>();
            Map<String, Path> byName = new LinkedHashMap<>();
            walk.filter(Files::isRegularFile).forEach(f -> {
                String name = "policies/" + dir.relativize(f).toString().replace('\\', '/');
                names.add(name);
                byName.put(name, f);
            });
            names.sort(Comparator.comparing((String s) -> s.getBytes(StandardCharsets.UTF_8), PolicySource::compareBytes));
            StringBuilder lines = new StringBuilder();
            for (String name : names) {
                lines.append(sha256(Files.readAllBytes(byName.get(name)))).append("  ").append(name).append('\n');
            }
            return sha256(lines.toString().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int compareBytes(byte[] a, byte[] b) {
        return java.util.Arrays.compareUnsigned(a, b);
    }

    private static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
