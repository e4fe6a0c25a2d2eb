package dev.gatehouse.gateway.audit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.facts.PolicyJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The names of the decision log's files, for the writer, its retention and the shipper. Beside the live file
 * {@code <stem><ext>} (e.g. {@code decisions.jsonl}): rotated files {@code <stem>-<yyyyMMdd'T'HHmmss'Z'>-<nnnn><ext>},
 * named by the UTC second of their rotation and a sequence number so that lexical order is rotation order; and for
 * each of them and the live file a values file {@code <name without ext>.values<ext>} (e.g.
 * {@code decisions-20261201T093000Z-0001.values.jsonl}) holding the values its records stand in for
 * ({@link StoredValue}). A log file and its values file are one unit: renamed, shipped and deleted together.
 */
public final class LogFiles {

    static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);
    private static final String VALUES = ".values";

    private LogFiles() {
    }

    /**
     * Every log file of {@code live} that exists, oldest first: the rotated ones in lexical (= rotation) order, then
     * the live file. Reading them in this order gives every record once, in the order written. Values files are not
     * listed.
     */
    public static List<Path> files(Path live) throws IOException {
        List<Path> files = new ArrayList<>(rotated(live));
        if (Files.exists(live)) {
            files.add(live);
        }
        return files;
    }

    /** The rotated files of {@code live}, in lexical order (= rotation order). */
    public static List<Path> rotated(Path live) throws IOException {
        Path directory = live.toAbsolutePath().getParent();
        if (directory == null || !Files.isDirectory(directory)) {
            return List.of();
        }
        Pattern pattern = pattern(live);
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.filter(p -> pattern.matcher(p.getFileName().toString()).matches())
                    .sorted((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()))
                    .toList();
        }
    }

    /** The values file of a log file (live or rotated). */
    public static Path valuesFile(Path logFile) {
        String[] parts = stemAndExtension(logFile);
        return logFile.resolveSibling(parts[0] + VALUES + parts[1]);
    }

    /** Where the shipper keeps its cursor: {@code <stem>.shipped.json} beside the live file. */
    public static Path shippedFile(Path live) {
        return live.resolveSibling(stemAndExtension(live)[0] + ".shipped.json");
    }

    /** Where the decision index's feed keeps its cursor: {@code <stem>.indexed.json} beside the live file. */
    public static Path indexedFile(Path live) {
        return live.resolveSibling(stemAndExtension(live)[0] + ".indexed.json");
    }

    /** When {@code rotated} (a name {@link #rotated} lists) was rotated, to the second. */
    static Instant rotatedAt(Path live, Path rotated) {
        Matcher name = pattern(live).matcher(rotated.getFileName().toString());
        if (!name.matches()) {
            throw new IllegalArgumentException(rotated + " is not a rotated file of " + live);
        }
        return Instant.from(STAMP.parse(name.group(1)));
    }

    /** The stamp and sequence number of a rotated name, or empty for any other name. */
    static Optional<Matcher> rotatedName(Path live, String name) {
        Matcher matcher = pattern(live).matcher(name);
        return matcher.matches() ? Optional.of(matcher) : Optional.empty();
    }

    /** {@code <stem>-<stamp>-<nnnn><ext>}. */
    static String rotatedName(Path live, String stamp, int sequence) {
        String[] parts = stemAndExtension(live);
        return parts[0] + "-" + stamp + "-" + String.format("%04d", sequence) + parts[1];
    }

    /**
     * The first record of a log file, parsed; empty when the file is missing, empty or its first line is not JSON.
     * Reads at most the first line.
     */
    public static Optional<JsonNode> firstRecord(Path file) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            return firstRecord(channel);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The same, of an open file (whatever its name is now). */
    public static Optional<JsonNode> firstRecord(FileChannel channel) {
        try {
            // Small: the index feed reads a first line on every round (a 64 KiB piece was most of what it allocated).
            ByteBuffer chunk = ByteBuffer.allocate(4 * 1024);
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            long position = 0;
            while (true) {
                chunk.clear();
                int read = channel.read(chunk, position);
                if (read <= 0) {
                    return Optional.empty(); // no newline: no whole first line
                }
                for (int i = 0; i < read; i++) {
                    if (chunk.get(i) == '\n') {
                        line.write(chunk.array(), 0, i);
                        return Optional.of(PolicyJson.MAPPER.readTree(line.toString(StandardCharsets.UTF_8)));
                    }
                }
                line.write(chunk.array(), 0, read);
                position += read;
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The {@code decision_id} of a log file's first record, or empty (see {@link #firstRecord}). */
    public static Optional<String> firstId(Path file) {
        return firstRecord(file).map(LogFiles::decisionId);
    }

    /** The same, of an open file. */
    public static Optional<String> firstId(FileChannel channel) {
        return firstRecord(channel).map(LogFiles::decisionId);
    }

    /** Whether {@code name} is the name of a rotated file of {@code live}. */
    public static boolean isRotatedName(Path live, String name) {
        return pattern(live).matcher(name).matches();
    }

    private static String decisionId(JsonNode record) {
        return record.path("decision_id").asText(null);
    }

    private static Pattern pattern(Path live) {
        String[] parts = stemAndExtension(live);
        return Pattern.compile(Pattern.quote(parts[0]) + "-(\\d{8}T\\d{6}Z)-(\\d{4})" + Pattern.quote(parts[1]));
    }

    /** {@code decisions.jsonl} → {@code [decisions, .jsonl]}; a name without an extension gets {@code ""}. */
    private static String[] stemAndExtension(Path file) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return dot <= 0 ? new String[] {name, ""} : new String[] {name.substring(0, dot), name.substring(dot)};
    }
}
