package dev.gatehouse.gateway.audit.shipping;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.gateway.audit.LogFiles;
import dev.gatehouse.facts.PolicyJson;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The values file of one decision-log file, read by key ({@code s<sha256>} for a string, {@code j<sha256>} for a
 * JSON value, as the writer keys them), for the events of one batch. Opened by the log file's first record, so a
 * rotation between reading the records and reading their values cannot give another file's values.
 */
final class ValueLookup implements Closeable {

    private static final Pattern VALUE_LINE = Pattern.compile("\\{\"sha256\":\"([0-9a-f]{64})\",\"(value|json)\"");
    private static final int ATTEMPTS = 3;

    private final FileChannel channel;
    /** Key → {offset, length} of its line. */
    private final Map<String, long[]> index = new HashMap<>();
    private long scanned;

    private ValueLookup(FileChannel channel) {
        this.channel = channel;
    }

    /**
     * The values file of the log file of {@code live} whose first record has the id {@code firstId}; one that finds
     * nothing when that file has no values file or is gone.
     */
    static ValueLookup open(Path live, String firstId) throws IOException {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            Optional<Path> file = find(live, firstId);
            if (file.isEmpty()) {
                return new ValueLookup(null);
            }
            FileChannel channel;
            try {
                channel = FileChannel.open(LogFiles.valuesFile(file.get()), StandardOpenOption.READ);
            } catch (NoSuchFileException e) {
                channel = null;
            }
            // The log file is renamed before its values file: if it still has this name, the values file opened
            // is its own.
            if (Objects.equals(LogFiles.firstId(file.get()).orElse(null), firstId)) {
                return new ValueLookup(channel);
            }
            if (channel != null) {
                channel.close();
            }
        }
        return new ValueLookup(null);
    }

    private static Optional<Path> find(Path live, String firstId) throws IOException {
        List<Path> files = LogFiles.files(live);
        for (int i = files.size() - 1; i >= 0; i--) {
            if (Objects.equals(LogFiles.firstId(files.get(i)).orElse(null), firstId)) {
                return Optional.of(files.get(i));
            }
        }
        return Optional.empty();
    }

    /** The values-file line of {@code key}, e.g. {@code {"sha256": "…", "value": "…"}}, or empty. */
    Optional<JsonNode> entry(String key) throws IOException {
        if (channel == null) {
            return Optional.empty();
        }
        if (!index.containsKey(key)) {
            scan();
        }
        long[] at = index.get(key);
        if (at == null) {
            return Optional.empty();
        }
        ByteBuffer line = ByteBuffer.allocate((int) at[1]);
        while (line.hasRemaining() && channel.read(line, at[0] + line.position()) > 0) {
            // fill
        }
        return Optional.of(PolicyJson.MAPPER.readTree(new String(line.array(), 0, line.position(),
                StandardCharsets.UTF_8)));
    }

    /** Indexes the lines added since the last scan. */
    private void scan() throws IOException {
        ByteBuffer chunk = ByteBuffer.allocate(64 * 1024);
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        long lineStart = scanned;
        long position = scanned;
        while (true) {
            chunk.clear();
            int read = channel.read(chunk, position);
            if (read <= 0) {
                return;
            }
            for (int i = 0; i < read; i++) {
                byte b = chunk.get(i);
                if (b == '\n') {
                    Matcher line = VALUE_LINE.matcher(head.toString(StandardCharsets.US_ASCII));
                    if (line.lookingAt()) {
                        index.put((line.group(2).equals("json") ? "j" : "s") + line.group(1),
                                new long[] {lineStart, position + i - lineStart});
                    }
                    head.reset();
                    lineStart = position + i + 1;
                    scanned = lineStart;
                } else if (head.size() < 96) {
                    head.write(b);
                }
            }
            position += read;
        }
    }

    @Override
    public void close() throws IOException {
        if (channel != null) {
            channel.close();
        }
    }
}
