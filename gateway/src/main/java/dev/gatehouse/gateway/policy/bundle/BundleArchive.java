package dev.gatehouse.gateway.policy.bundle;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * The files of an OPA bundle (a gzipped tar, {@code opa build}), by name, before anything is verified. Names are
 * given as OPA's reader compares them with the signature's file list: without the leading {@code /} (and without
 * {@code ./}, as plain {@code tar} writes them). Directory entries are skipped. Sizes are capped, so a gzip bomb
 * cannot exhaust memory: the archive at {@link #MAX_FILE_BYTES}, the uncompressed total at
 * {@link #MAX_UNCOMPRESSED_BYTES}.
 *
 * @param files  every file in archive order, content as read
 * @param sha256 lower-case hex SHA-256 of the archive bytes (tells one download from the next, not a revision)
 */
public record BundleArchive(Map<String, byte[]> files, String sha256) {

    /** Largest bundle archive accepted, in bytes. */
    public static final long MAX_FILE_BYTES = 64L * 1024 * 1024;
    /** Largest uncompressed content accepted, in bytes (sum of all entries). */
    public static final long MAX_UNCOMPRESSED_BYTES = 256L * 1024 * 1024;

    public BundleArchive {
        files = Collections.unmodifiableMap(new LinkedHashMap<>(files));
    }

    /**
     * Reads a bundle file.
     *
     * @throws BundleException when the file is missing, unreadable, larger than {@link #MAX_FILE_BYTES} or not a
     *                         gzipped tar
     */
    public static BundleArchive read(Path file) throws BundleException {
        try {
            if (!Files.isRegularFile(file)) {
                throw new BundleException("bundle " + file.toAbsolutePath() + " does not exist (run make bundle)");
            }
            if (Files.size(file) > MAX_FILE_BYTES) {
                throw new BundleException("bundle " + file + " is larger than " + MAX_FILE_BYTES + " bytes");
            }
            return parse(Files.readAllBytes(file), file.toString());
        } catch (IOException e) {
            throw new BundleException("bundle " + file + " cannot be read: " + e.getMessage(), e);
        }
    }

    /**
     * Reads a bundle from bytes (a download).
     *
     * @param origin where the bytes came from, for messages
     * @throws BundleException when the bytes are too many or not a complete gzipped tar (a truncated body is one)
     */
    public static BundleArchive parse(byte[] bytes, String origin) throws BundleException {
        if (bytes.length > MAX_FILE_BYTES) {
            throw new BundleException("bundle " + origin + " is larger than " + MAX_FILE_BYTES + " bytes");
        }
        Map<String, byte[]> files = new LinkedHashMap<>();
        long total = 0;
        try (GZIPInputStream gzip = new GZIPInputStream(new ByteArrayInputStream(bytes));
                TarArchiveInputStream tar = new TarArchiveInputStream(gzip)) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                if (!entry.isFile()) {
                    continue;
                }
                byte[] content = readCapped(tar, MAX_UNCOMPRESSED_BYTES - total);
                total += content.length;
                if (files.put(entry.getName().replaceFirst("^\\.?/", ""), content) != null) {
                    throw new BundleException("bundle " + origin + " holds " + entry.getName() + " twice");
                }
            }
            // The tar ends before the gzip stream does: read on to its trailer, whose CRC and length are checked
            // there, so a body cut within its last bytes is refused too (its files could all be whole).
            readCapped(gzip, MAX_UNCOMPRESSED_BYTES - total);
        } catch (IOException e) {
            throw new BundleException("bundle " + origin + " is not a readable gzipped tar: " + why(e), e);
        }
        return new BundleArchive(files, sha256(bytes));
    }

    /** What went wrong, never "null": an empty or cut-off file ends the stream with a message-less EOFException. */
    private static String why(IOException e) {
        if (e instanceof EOFException) {
            return "it ends early (an empty or truncated file)";
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
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

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides SHA-256", e);
        }
    }
}
