package dev.gatehouse.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
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
 * <p>A source also gives the access table and the tool input schemas its revision enforces ({@link Calls}): a bundle
 * from its data ({@code data.gatehouse.access_table}, {@code data.gatehouse.tool_schemas}, which
 * {@code make bundle} signs into it), a directory from {@code <dir>/gatehouse/access_table/data.json} and the schemas
 * directory beside it ({@code <dir>/../schemas/tools/*.input.json}, as in a checkout).
 *
 * <p>Revision: the bundle manifest's, or for a directory the value {@code scripts/source-revision.sh} prints for
 * that tree (SHA-256 over {@code sha256sum} lines of every file, named {@code policies/<path>} and
 * {@code schemas/tools/<name>}, in byte order).
 */
public final class PolicySource implements AutoCloseable {

    private static final String SCHEMA_SUFFIX = ".input.json";

    private final Path path;
    private final boolean bundle;
    private final List<String> opaArgs;
    private final String revision;
    private final JsonNode accessTable;
    private final ObjectNode toolSchemas;

    private PolicySource(Path path, boolean bundle, List<String> opaArgs, String revision, JsonNode accessTable,
            ObjectNode toolSchemas) {
        this.path = path;
        this.bundle = bundle;
        this.opaArgs = opaArgs;
        this.revision = revision;
        this.accessTable = accessTable;
        this.toolSchemas = toolSchemas;
    }

    /** A bundle file or a policies directory, whichever {@code spec} names. */
    public static PolicySource parse(String spec) {
        Path p = Path.of(spec);
        return Files.isDirectory(p) ? directory(p) : bundle(p);
    }

    public static PolicySource directory(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new ReviewException("not a policies directory: " + dir);
        }
        Path schemas = schemasBeside(dir);
        ObjectNode toolSchemas = Opa.JSON.createObjectNode();
        try (Stream<Path> files = Files.list(schemas)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(SCHEMA_SUFFIX)).sorted()
                    .toList()) {
                String name = file.getFileName().toString();
                toolSchemas.set(name.substring(0, name.length() - SCHEMA_SUFFIX.length()), readJson(file));
            }
        } catch (IOException e) {
            throw new ReviewException("no tool schemas beside " + dir + " (" + schemas + "): " + e.getMessage());
        }
        return new PolicySource(dir, false, List.of("-d", dir.toString()), sourceRevision(dir, schemas),
                readJson(dir.resolve("gatehouse/access_table/data.json")), toolSchemas);
    }

    /** The tool schemas of a checkout's policies directory: {@code <dir>/../schemas/tools}. */
    public static Path schemasBeside(Path policies) {
        return policies.toAbsolutePath().normalize().resolveSibling("schemas").resolve("tools");
    }

    public static PolicySource bundle(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new ReviewException("no bundle file at " + file);
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
                throw new ReviewException("unreadable bundle manifest in " + file + ": " + e.getMessage());
            }
        }
        if (entries.containsKey("policy.wasm")) {
            // opa eval has no Wasm engine, and the Rego kept beside policy.wasm is what the Wasm compiler left,
            // without the entry points: evaluating it would not be the policy the gateway runs.
            throw new ReviewException(file + " is a Wasm bundle, which opa eval cannot run; give the Rego bundle built"
                    + " from the same sources (make bundle: target/bundle/rego-bundle.tar.gz) or --policies");
        }
        JsonNode data = entries.containsKey("data.json") ? readJson(file, entries.get("data.json"))
                : Opa.JSON.createObjectNode();
        JsonNode schemas = data.path("gatehouse").path("tool_schemas");
        return new PolicySource(file, true, List.of("-b", file.toString()), revision,
                data.path("gatehouse").path("access_table"),
                schemas.isObject() ? (ObjectNode) schemas : Opa.JSON.createObjectNode());
    }

    /** The access table of this source's revision (missing when it has none). */
    public JsonNode accessTable() {
        return accessTable;
    }

    /** Tool name → input schema, of this source's revision. */
    public ObjectNode toolSchemas() {
        return toolSchemas;
    }

    public List<String> opaArgs() {
        return opaArgs;
    }

    public String revision() {
        return revision;
    }

    public String label() {
        return (bundle ? "bundle " : "policies ") + path;
    }

    /** What {@code opa inspect} reads: the directory or the bundle. */
    public Path inspectTarget() {
        return path;
    }

    /** The {@code opa eval} arguments a reader can paste, naming the source as given. */
    public String reproduceArgs() {
        return (bundle ? "-b " : "-d ") + Shell.quote(path.toString());
    }

    @Override
    public void close() {
        // nothing held open; a source is AutoCloseable so that one that unpacks can be added without changing callers
    }

    private static Map<String, byte[]> readTarGz(Path file) {
        Map<String, byte[]> entries = new LinkedHashMap<>();
        try (InputStream in = Files.newInputStream(file);
             GzipCompressorInputStream gzip = new GzipCompressorInputStream(in);
             TarArchiveInputStream tar = new TarArchiveInputStream(gzip)) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                if (entry.isFile()) {
                    String name = entry.getName().replaceFirst("^/+", "");
                    entries.put(name, tar.readAllBytes());
                }
            }
            // The tar ends before the gzip stream does: read on to its trailer (CRC and length checked), so a file cut
            // within its last bytes is refused too, as the gateway refuses it.
            gzip.transferTo(OutputStream.nullOutputStream());
        } catch (IOException e) {
            // An empty or cut-off file ends the stream with a message-less EOFException: never say "null".
            throw new ReviewException("not a bundle (.tar.gz): " + file + ": " + (e instanceof EOFException
                    ? "it ends early (an empty or truncated file)"
                    : e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName()));
        }
        return entries;
    }

    public static String sourceRevision(Path policies, Path schemas) {
        Map<String, Path> byName = new LinkedHashMap<>();
        name(policies, "policies/", byName);
        name(schemas, "schemas/tools/", byName);
        List<String> names = new ArrayList<>(byName.keySet());
        names.sort(Comparator.comparing((String s) -> s.getBytes(StandardCharsets.UTF_8), PolicySource::compareBytes));
        StringBuilder lines = new StringBuilder();
        try {
            for (String name : names) {
                lines.append(sha256(Files.readAllBytes(byName.get(name)))).append("  ").append(name).append('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return sha256(lines.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** Every file under {@code dir}, named {@code prefix + its path} as scripts/source-revision.sh names it. */
    private static void name(Path dir, String prefix, Map<String, Path> byName) {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.filter(Files::isRegularFile).forEach(f ->
                    byName.put(prefix + dir.relativize(f).toString().replace('\\', '/'), f));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode readJson(Path file) {
        return TextFile.json(file);
    }

    private static JsonNode readJson(Path bundle, byte[] json) {
        try {
            return Opa.JSON.readTree(json);
        } catch (IOException e) {
            throw new ReviewException("unreadable data.json in " + bundle + ": " + e.getMessage());
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
