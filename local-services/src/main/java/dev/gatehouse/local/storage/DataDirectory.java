package dev.gatehouse.local.storage;

import dev.gatehouse.local.config.LocalServicesConfig;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The data directory, created on first use. {@link #fresh()} tells the stores whether to seed demo data: only a
 * directory that did not exist before this start is seeded, so a restart keeps what was written.
 */
@Singleton
public class DataDirectory {

    private final Path root;
    private final boolean fresh;

    public DataDirectory(LocalServicesConfig config) {
        this.root = config.getDataDir().toAbsolutePath().normalize();
        this.fresh = !Files.exists(root);
        try {
            Files.createDirectories(root);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create data directory " + root, e);
        }
    }

    /** The absolute data directory. */
    public Path root() {
        return root;
    }

    /** A sub-directory, created if missing. */
    public Path child(String name) {
        Path dir = root.resolve(name);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
        return dir;
    }

    /** True when the data directory did not exist before this start. */
    public boolean fresh() {
        return fresh;
    }
}
