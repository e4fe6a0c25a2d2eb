package dev.gatehouse.local.storage;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.UUID;

/**
 * Replaces a file atomically: the bytes go to a temporary file in the same directory, are forced to disk, and the
 * temporary file is renamed over the target. A crash leaves the old file or the complete new one, never a
 * truncated one. Temporary names contain {@link #MARK}, a character no wiki segment may hold (docs/domain.md §7), so
 * listings can skip them and start-up can remove leftovers.
 */
public final class AtomicFiles {

    /** Marks files that are not content: temporaries and revision records. */
    public static final String MARK = "~";
    /** The length of a temporary file's name, in bytes: {@link #MARK}, a UUID and {@code .tmp}. */
    public static final int TEMP_NAME_BYTES = MARK.length() + 36 + ".tmp".length();

    private AtomicFiles() {
    }

    /** How the bytes reach the temporary file; a seam so tests can fail a write halfway. */
    @FunctionalInterface
    public interface ContentWriter {
        void write(OutputStream out, byte[] content) throws IOException;
    }

    /** Writes everything at once. */
    public static final ContentWriter PLAIN = OutputStream::write;

    /** Atomically replaces {@code target} with {@code content}. */
    public static void replace(Path target, byte[] content) throws IOException {
        try (Pending pending = prepare(target, content, PLAIN)) {
            pending.commit();
        }
    }

    /**
     * Writes {@code content} with {@code writer} to a temporary file next to {@code target} and forces it to disk;
     * nothing is visible until {@link Pending#commit()}. On failure the temporary file is removed.
     *
     * @throws IOException when writing or forcing failed
     */
    public static Pending prepare(Path target, byte[] content, ContentWriter writer) throws IOException {
        // Named apart from the target so that the longest page name still leaves room for the temporary's.
        Path temp = target.resolveSibling(MARK + UUID.randomUUID() + ".tmp");
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                OutputStream out = Channels.newOutputStream(channel)) {
            writer.write(out, content);
            out.flush();
            channel.force(true);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(temp);
            throw e;
        }
        return new Pending(temp, target);
    }

    /** A fully written temporary file waiting to be renamed over its target; closing without commit drops it. */
    public static final class Pending implements AutoCloseable {

        private final Path temp;
        private final Path target;

        private Pending(Path temp, Path target) {
            this.temp = temp;
            this.target = target;
        }

        /** Renames the temporary file over the target in one atomic step. */
        public void commit() throws IOException {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }

        /** Removes the temporary file if it was not committed. */
        @Override
        public void close() throws IOException {
            Files.deleteIfExists(temp);
        }
    }

    /** True for names that are temporaries or records rather than content. */
    public static boolean isHidden(Path file) {
        return file.getFileName().toString().contains(MARK);
    }

    /** True for leftover temporaries of an interrupted write. */
    public static boolean isTemporary(Path file) {
        String name = file.getFileName().toString();
        return name.contains(MARK) && name.endsWith(".tmp");
    }
}
