package dev.gatehouse.gateway.policy.embedded;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * Reads an OPA Wasm bundle ({@code opa build -t wasm}: a gzipped tar with {@code /policy.wasm}, {@code /data.json},
 * {@code /.manifest} and the Rego sources). Only {@code /policy.wasm} and {@code /data.json} are used; their
 * absence is an error. Sizes are capped, like OPA's own bundle reader, so a gzip bomb cannot exhaust memory:
 * the file itself at {@link #MAX_FILE_BYTES}, the uncompressed total at {@link #MAX_UNCOMPRESSED_BYTES}.
 */
public final class BundleReader {

    /** Largest bundle file accepted, in bytes. */
    public static final long MAX_FILE_BYTES = 64L * 1024 * 1024;
    /** Largest uncompressed content accepted, in bytes (sum of all entries). */
    public static final long MAX_UNCOMPRESSED_BYTES = 256L * 1024 * 1024;

    private static final String WASM = "policy.wasm";
    private static final String DATA = "data.json";

    private BundleReader() {
    }

    /**
     * Reads and checks one bundle file.
     *
     * @throws BundleException when the file is missing, unreadable, too large, not a gzipped tar, or lacks
     *                         {@code /policy.wasm} or {@code /data.json}
     */
    public static WasmBundle read(Path file) throws BundleException {
        byte[] bytes = readFile(file);
        byte[] wasm = null;
        byte[] data = null;
        long total = 0;
        try (TarArchiveInputStream tar = new TarArchiveInputStream(
                new GZIPInputStream(new ByteArrayInputStream(bytes)))) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                if (!entry.isFile()) {
                    continue;
                }
                String name = entry.getName().replaceFirst("^\\.?/", ""); // "/data.json" (opa build), "./data.json" (tar)
                byte[] content = readCapped(tar, MAX_UNCOMPRESSED_BYTES - total);
                total += content.length;
                if (name.equals(WASM)) {
                    wasm = content;
                } else if (name.equals(DATA)) {
                    data = content;
                }
            }
        } catch (IOException e) {
            throw new BundleException("bundle " + file + " is not a readable gzipped tar: " + e.getMessage(), e);
        }
        if (wasm == null) {
            throw new BundleException("bundle " + file + " has no /" + WASM + " (build it with make bundle)");
        }
        if (data == null) {
            throw new BundleException("bundle " + file + " has no /" + DATA);
        }
        return new WasmBundle(wasm, new String(data, StandardCharsets.UTF_8), sha256(bytes));
    }

    private static byte[] readFile(Path file) throws BundleException {
        try {
            if (!Files.isRegularFile(file)) {
                throw new BundleException("bundle " + file.toAbsolutePath() + " does not exist (run make bundle)");
            }
            if (Files.size(file) > MAX_FILE_BYTES) {
                throw new BundleException("bundle " + file + " is larger than " + MAX_FILE_BYTES + " bytes");
            }
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new BundleException("bundle " + file + " cannot be read: " + e.getMessage(), e);
        }
    }

    private static byte[] readCapped(InputStream in, long remaining) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[64 * 1024];
        int n;
        while ((n = in.read(buffer)) > 0) {
            if (out.size() + (long) n > remaining) {
                throw new IOException("uncompressed content exceeds " + MAX_UNCOMPRESSED_BYTES + " bytes");
            }
            out.write(buffer, 0, n);
        }
        return out.toByteArray();
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides SHA-256", e);
        }
    }
}
