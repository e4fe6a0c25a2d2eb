package dev.gatehouse.gateway.audit.shipping;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * Batches waiting to be sent, one file each, holding the exact POST body (a gzip JSON array). Names are
 * {@code <epoch ms, 13 digits>-<sequence, 6 digits>.json.gz}, so name order is the order written, across restarts
 * too. A file appears whole or not at all (written as {@code .tmp}, then renamed); leftover {@code .tmp} files of a
 * crash are removed when the directory is opened. Used by one shipper thread only.
 */
final class SpillDirectory {

    private static final String SUFFIX = ".json.gz";
    private static final String TMP = ".tmp";

    private final Path dir;
    private final long maxBytes;
    private long sequence;
    private long bytes;

    SpillDirectory(Path dir, long maxBytes) throws IOException {
        this.dir = dir;
        this.maxBytes = maxBytes;
        Files.createDirectories(dir);
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.toList()) {
                if (file.getFileName().toString().endsWith(TMP)) {
                    Files.deleteIfExists(file);
                }
            }
        }
        for (Path file : pending()) {
            bytes += Files.size(file);
        }
    }

    /**
     * Writes one batch.
     *
     * @return false when it would take the directory past its limit (nothing was written)
     */
    boolean write(byte[] body) throws IOException {
        if (bytes + body.length > maxBytes) {
            return false;
        }
        String name;
        Path file;
        do {
            name = String.format("%013d-%06d", System.currentTimeMillis(), sequence++ % 1_000_000) + SUFFIX;
            file = dir.resolve(name);
        } while (Files.exists(file));
        Path tmp = dir.resolve(name + TMP);
        Files.write(tmp, body, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try {
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file);
        }
        bytes += body.length;
        return true;
    }

    /** The batches waiting, oldest first. */
    List<Path> pending() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(SUFFIX)).sorted().toList();
        }
    }

    /** Removes a batch that was sent (or refused for good). */
    void remove(Path file) throws IOException {
        long size = Files.size(file);
        Files.delete(file);
        bytes -= size;
    }

    /** Bytes waiting in the directory. */
    long bytes() {
        return bytes;
    }
}
