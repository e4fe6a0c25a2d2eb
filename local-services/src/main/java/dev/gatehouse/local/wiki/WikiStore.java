package dev.gatehouse.local.wiki;

import dev.gatehouse.local.http.ApiException;
import dev.gatehouse.local.storage.AtomicFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Wiki pages as files under one directory. Each page {@code p} has a revision record {@code p~rev} beside it
 * holding its last revision number N (revision {@code rN}); the counter survives a delete, so a recreated page
 * never reuses an old revision. Writes and deletes of one page are serialised by a per-page lock and checked
 * against the base revision there (of two writes from one revision exactly one wins). A write puts the new
 * content in a forced temporary file, then records the revision, then renames the content into place: a crash
 * leaves the old page (perhaps with a skipped revision number) or the complete new one. A move holds the locks of
 * both pages, taken in path order so two opposite moves cannot deadlock, records the revision at the destination,
 * then renames the page in one atomic step and forces the folders: the page is at exactly one of the two paths at
 * any time. Symbolic links, and anything resolving outside the directory, are refused.
 */
public final class WikiStore {

    private static final String REVISION_SUFFIX = AtomicFiles.MARK + "rev";

    /** The suffix of a page's revision record, in bytes: a page's name plus this must fit {@link #MAX_NAME_BYTES}. */
    static final int REVISION_SUFFIX_BYTES = REVISION_SUFFIX.getBytes(StandardCharsets.UTF_8).length;
    /** What the file systems this store runs on hold in one name (ext4, XFS, APFS, NTFS: 255 bytes or more). */
    static final int MAX_NAME_BYTES = 255;
    /** The file system's longest file name with its terminating NUL (Linux PATH_MAX), in bytes. */
    static final int MAX_PATH_BYTES = 4096;
    private static final int MAX_HITS = 100;
    private static final int MAX_SNIPPET = 200;

    private final Path root;
    private final AtomicFiles.ContentWriter writer;
    private final ConcurrentHashMap<String, Object> locks = new ConcurrentHashMap<>();

    /**
     * @param root   the wiki directory; must exist
     * @param writer how page bytes reach the temporary file ({@link AtomicFiles#PLAIN} outside tests)
     */
    public WikiStore(Path root, AtomicFiles.ContentWriter writer) {
        try {
            this.root = root.toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException("wiki directory unusable: " + root, e);
        }
        this.writer = writer;
    }

    /** A page read whole. */
    public record Page(String path, String content, String revision) {
    }

    /** A listing entry: {@code page} with its revision, or {@code folder}. */
    public record Entry(String path, String kind, Optional<String> revision) {
    }

    /** A search hit: the page and the matching line. */
    public record Hit(String path, String snippet) {
    }

    /** A completed move: the former and new path, and the page's revision at the new one. */
    public record Moved(String from, String to, String revision) {
    }

    /** Removes temporaries left by writes that were interrupted by a crash. */
    public void removeLeftovers() {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : (Iterable<Path>) files.filter(AtomicFiles::isTemporary)::iterator) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot clean " + root, e);
        }
    }

    /** Direct children of {@code folder}; empty when nothing is stored there. 422 when it is a page. */
    public List<Entry> list(WikiPath folder) {
        Path dir = resolve(folder);
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return List.of();
        }
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw ApiException.unprocessable("not_a_folder", "the path names a page");
        }
        List<Entry> entries = new ArrayList<>();
        try (Stream<Path> children = Files.list(dir)) {
            for (Path child : (Iterable<Path>) children.sorted(Comparator.comparing(Path::toString))::iterator) {
                if (AtomicFiles.isHidden(child) || Files.isSymbolicLink(child)) {
                    continue;
                }
                String wire = folder.wire() + "/" + child.getFileName();
                if (Files.isDirectory(child, LinkOption.NOFOLLOW_LINKS)) {
                    entries.add(new Entry(wire, "folder", Optional.empty()));
                } else if (Files.isRegularFile(child, LinkOption.NOFOLLOW_LINKS)) {
                    entries.add(new Entry(wire, "page", Optional.of(revisionName(lastRevision(child)))));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return entries;
    }

    /** Page {@code path}; 404 {@code page_not_found} when absent. */
    public Page read(WikiPath path) {
        Path file = resolve(path);
        synchronized (lock(path)) {
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                throw notFound();
            }
            try {
                return new Page(path.wire(), Files.readString(file, StandardCharsets.UTF_8),
                        revisionName(lastRevision(file)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** Lines containing {@code query} (case-insensitive) in pages under {@code folder}, at most 100. */
    public List<Hit> search(WikiPath folder, String query) {
        Path dir = resolve(folder);
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return List.of();
        }
        String needle = query.toLowerCase(Locale.ROOT);
        List<Hit> hits = new ArrayList<>();
        // Files.walk does not follow links, so nothing outside the folder is read.
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : (Iterable<Path>) files.sorted()::iterator) {
                if (hits.size() >= MAX_HITS) {
                    break;
                }
                if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) || AtomicFiles.isHidden(file)) {
                    continue;
                }
                String wire = root.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
                for (String line : Files.readString(file, StandardCharsets.UTF_8).split("\n")) {
                    if (hits.size() < MAX_HITS && line.toLowerCase(Locale.ROOT).contains(needle)) {
                        String snippet = line.strip();
                        hits.add(new Hit(wire, snippet.length() > MAX_SNIPPET
                                ? snippet.substring(0, MAX_SNIPPET) : snippet));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return hits;
    }

    /**
     * Creates or replaces page {@code path}. With {@code baseRevision} the page must still be at it; without, it
     * must not exist. Otherwise 409 {@code revision_conflict}.
     *
     * @return the new revision
     */
    public String write(WikiPath path, String content, Optional<String> baseRevision) {
        Path file = resolve(path);
        storable(path);
        synchronized (lock(path)) {
            if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
                throw ApiException.unprocessable("not_a_page", "a folder exists at this path");
            }
            boolean exists = Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS);
            long last = lastRevision(file);
            String current = revisionName(last);
            if (baseRevision.isPresent() ? !exists || !baseRevision.get().equals(current) : exists) {
                throw ApiException.conflict("revision_conflict", "the page is not at the base revision");
            }
            long next = last + 1;
            try {
                createFolders(file.getParent());
                resolve(path); // the folders just created must still be plain folders under the root
                try (AtomicFiles.Pending page = AtomicFiles.prepare(file, content.getBytes(StandardCharsets.UTF_8),
                        writer)) {
                    AtomicFiles.replace(revisionFile(file), Long.toString(next).getBytes(StandardCharsets.UTF_8));
                    page.commit();
                }
            } catch (IOException e) {
                throw new UncheckedIOException("write failed", e);
            }
            return revisionName(next);
        }
    }

    /**
     * Deletes page {@code path} if it is at {@code baseRevision}: 404 when absent, 409 when at another revision.
     *
     * @return the deleted revision
     */
    public String delete(WikiPath path, String baseRevision) {
        Path file = resolve(path);
        synchronized (lock(path)) {
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                throw notFound();
            }
            String current = revisionName(lastRevision(file));
            if (!current.equals(baseRevision)) {
                throw ApiException.conflict("revision_conflict", "the page is not at the base revision");
            }
            try {
                Files.delete(file);
            } catch (IOException e) {
                throw new UncheckedIOException("delete failed", e);
            }
            return current;
        }
    }

    /**
     * Moves page {@code from} to {@code to} if it is at {@code baseRevision}, never replacing a page: 404 when
     * {@code from} is absent, 409 {@code revision_conflict} when it is at another revision, 409 {@code page_exists}
     * when a page is at {@code to} (also when both name the same page), 422 {@code not_a_page} when a folder is.
     * At {@code to} the page gets a revision above any either path ever had; {@code from} keeps its counter, as
     * after a delete, so a page recreated there never reuses a revision.
     *
     * @return the paths and the page's revision at {@code to}
     */
    public Moved move(WikiPath from, WikiPath to, String baseRevision) {
        Path source = resolve(from);
        Path target = resolve(to);
        storable(to);
        boolean fromFirst = from.wire().compareTo(to.wire()) <= 0;
        synchronized (lock(fromFirst ? from : to)) {
            synchronized (lock(fromFirst ? to : from)) {
                if (!Files.isRegularFile(source, LinkOption.NOFOLLOW_LINKS)) {
                    throw notFound();
                }
                long last = lastRevision(source);
                if (!revisionName(last).equals(baseRevision)) {
                    throw ApiException.conflict("revision_conflict", "the page is not at the base revision");
                }
                if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
                    throw ApiException.unprocessable("not_a_page", "a folder exists at the destination");
                }
                if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                    throw ApiException.conflict("page_exists", "a page exists at the destination");
                }
                long next = Math.max(last, lastRevision(target)) + 1;
                try {
                    createFolders(target.getParent());
                    resolve(to); // the folders just created must still be plain folders under the root
                    AtomicFiles.replace(revisionFile(target), Long.toString(next).getBytes(StandardCharsets.UTF_8));
                    // rename(2): one step, so no reader or crash ever sees the page at both paths or at neither.
                    Files.move(source, target, StandardCopyOption.ATOMIC_MOVE);
                    force(target.getParent());
                    if (!source.getParent().equals(target.getParent())) {
                        force(source.getParent());
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException("move failed", e);
                }
                return new Moved(from.wire(), to.wire(), revisionName(next));
            }
        }
    }

    /** Forces a folder's entries (a rename in it) to disk. */
    private static void force(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    /**
     * The file for {@code path}, refusing (400 {@code path_escape}) any symbolic link on the way and anything
     * whose existing part resolves outside the root.
     */
    private Path resolve(WikiPath path) {
        Path file = root;
        for (String segment : path.segments()) {
            file = file.resolve(segment);
            if (Files.isSymbolicLink(file)) {
                throw escape();
            }
        }
        while (true) {
            Path existing = file;
            while (!Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
                existing = existing.getParent();
            }
            try {
                if (!existing.toRealPath().startsWith(root)) {
                    throw escape();
                }
                return file;
            } catch (NoSuchFileException e) {
                // Moved or deleted by another call between the two looks: look again (the root always exists).
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private void createFolders(Path dir) throws IOException {
        // A page where a folder of the path should be: Files.createDirectories would fail with a bare "Not a
        // directory" (found by WikiConfinementPropertyTest: a page "x" and then a write of "x/y/z").
        for (Path folder = dir; folder != null && folder.startsWith(root); folder = folder.getParent()) {
            if (Files.exists(folder, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
                throw ApiException.unprocessable("not_a_folder", "a folder of the path is a page");
            }
        }
        try {
            Files.createDirectories(dir);
        } catch (FileAlreadyExistsException e) {
            throw ApiException.unprocessable("not_a_folder", "a folder of the path is a page");
        }
    }

    private long lastRevision(Path file) {
        Path record = revisionFile(file);
        if (!Files.isRegularFile(record, LinkOption.NOFOLLOW_LINKS)) {
            return 0;
        }
        try {
            return Long.parseLong(Files.readString(record, StandardCharsets.UTF_8).strip());
        } catch (IOException | NumberFormatException e) {
            throw new IllegalStateException("unreadable revision record for a page", e);
        }
    }

    /**
     * Pages are files here, so their names must fit the file system's 255-byte name limit together with the
     * revision record's suffix, and the whole file name (data directory, path and suffix) its 4,096-byte path
     * limit (Linux PATH_MAX, with its terminating NUL; the temporary file a write goes through is measured too). {@link WikiPath} already refuses longer segments with the
     * same limit, as the policy does; the whole path is this storage's own limit (32 segments the policy admits can
     * be twice as long). Checked before anything is created, so a refused write leaves no folder behind.
     *
     * @throws ApiException 422 {@code name_too_long} for a segment this storage cannot hold, 422
     *                      {@code path_too_long} for a whole path
     */
    private void storable(WikiPath path) {
        for (String segment : path.segments()) {
            if (segment.getBytes(StandardCharsets.UTF_8).length + REVISION_SUFFIX.length() > MAX_NAME_BYTES) {
                throw ApiException.unprocessable("name_too_long",
                        "a path segment is longer than this wiki storage can hold (" + MAX_NAME_BYTES
                                + " bytes with its revision record)");
            }
        }
        Path record = revisionFile(root.resolve(String.join("/", path.segments())));
        int folderBytes = record.getParent().toString().getBytes(StandardCharsets.UTF_8).length;
        if (Math.max(record.toString().getBytes(StandardCharsets.UTF_8).length,
                folderBytes + 1 + AtomicFiles.TEMP_NAME_BYTES) >= MAX_PATH_BYTES) {
            throw ApiException.unprocessable("path_too_long", "the path is longer than this wiki storage can hold ("
                    + (MAX_PATH_BYTES - 1) + " bytes with its data directory and revision record)");
        }
    }

    private static Path revisionFile(Path file) {
        return file.resolveSibling(file.getFileName() + REVISION_SUFFIX);
    }

    private static String revisionName(long number) {
        return "r" + number;
    }

    private Object lock(WikiPath path) {
        return locks.computeIfAbsent(path.wire(), key -> new Object());
    }

    private static ApiException notFound() {
        return ApiException.notFound("page_not_found", "no such page");
    }

    private static ApiException escape() {
        return ApiException.badRequest("path_escape", "the path leaves the wiki");
    }
}
