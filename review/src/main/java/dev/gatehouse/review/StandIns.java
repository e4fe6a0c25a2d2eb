package dev.gatehouse.review;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Puts back what the decision log stood in for (schemas/decision-log-record.json): the values files beside the log
 * files hold each long value once by its SHA-256 ({@code {"sha256", "value"}} for a string, {@code {"sha256",
 * "json"}} for a JSON value), and a record names them with {@code reduced} (its whole record), {@code redacted}
 * (stand-ins {@code {length, sha256[, json]}}) and {@code redactedKeys} (member names {@code sha256:<hex>}).
 */
public final class StandIns {

    private final Map<String, JsonNode> values = new HashMap<>();
    private final List<String> cut = new ArrayList<>();

    /** The values file of a log file: {@code <name without ext>.values<ext>}. */
    public static Path valuesFile(Path logFile) {
        String name = logFile.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String stem = dot <= 0 ? name : name.substring(0, dot);
        String ext = dot <= 0 ? "" : name.substring(dot);
        return logFile.resolveSibling(stem + ".values" + ext);
    }

    /** Whether {@code file} is named like a values file (then it holds values, not records). */
    public static boolean isValuesFile(Path file) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return (dot <= 0 ? name : name.substring(0, dot)).endsWith(".values");
    }

    /**
     * Reads a values file; a string whose digest is not its value's is refused. (A JSON value's digest is over the
     * gateway's serialisation, which reading and writing it again need not give byte for byte: it is not checked.)
     *
     * <p>A last line with no line break at its end that is not whole JSON was cut off while it was being written: it
     * is not read, and {@link #cutLines} names it.
     *
     * @throws ReviewException when the file cannot be read ({@link TextFile#jsonLines}), or a line is not JSON, not a
     *                         values entry, or a string's digest does not match (naming the line)
     */
    public void read(Path file) {
        TextFile.jsonLines(file, (lineNo, line) -> entry(file + ":" + lineNo, line),
                last -> cut.add(file + ":" + last.number() + " (" + last.size() + ")"));
    }

    /** The values files' last lines not read because they were cut off ({@link #read}): where, and how many bytes. */
    public List<String> cutLines() {
        return List.copyOf(cut);
    }

    private void entry(String where, String line) {
        if (line.isBlank()) {
            return;
        }
        JsonNode entry;
        try {
            entry = Opa.JSON.readTree(line);
        } catch (JsonProcessingException e) {
            throw new ReviewException(where + ": not JSON" + TextFile.at(e) + ": " + e.getOriginalMessage());
        }
        if (!add(entry)) {
            throw new ReviewException(where + ": not a value whose SHA-256 is its sha256");
        }
    }

    /**
     * Takes one values-file line ({@code {"sha256", "value"}} or {@code {"sha256", "json"}}), e.g. one a decision
     * index kept beside its record.
     *
     * @return false, taking nothing, when it is not such a line or a string's digest is not its value's
     */
    public boolean add(JsonNode entry) {
        boolean json = entry.has("json");
        JsonNode value = json ? entry.get("json") : entry.get("value");
        String sha256 = entry.path("sha256").asText();
        if (value == null || (!json && !(value.isTextual() && sha256.equals(sha256(value.textValue()))))) {
            return false;
        }
        values.put((json ? "j" : "s") + sha256, value);
        return true;
    }

    /** Values read so far. */
    public int size() {
        return values.size();
    }

    /**
     * {@code logged} with everything put back: a reduced line by its whole record, then each redacted value, then
     * each redacted member name (children first); {@code redacted} and {@code redactedKeys} are left out.
     *
     * @return empty when a value is not in the values read (a masked value is never kept)
     */
    public Optional<ObjectNode> restore(JsonNode logged) {
        JsonNode whole = logged.has("reduced") ? value(logged.get("reduced")) : logged;
        if (!(whole instanceof ObjectNode)) {
            return Optional.empty();
        }
        ObjectNode record = whole.deepCopy();
        for (JsonNode pointer : record.path("redacted")) {
            JsonNode value = value(record.at(pointer.asText()));
            if (value == null || !set(record, pointer.asText(), value.deepCopy())) {
                return Optional.empty();
            }
        }
        List<JsonNode> keys = new ArrayList<>();
        record.path("redactedKeys").forEach(keys::add);
        for (int i = keys.size() - 1; i >= 0; i--) {
            JsonNode name = value(keys.get(i));
            if (name == null || !rename(record, keys.get(i).path("pointer").asText(), name.textValue())) {
                return Optional.empty();
            }
        }
        record.remove(List.of("redacted", "redactedKeys"));
        return Optional.of(record);
    }

    private JsonNode value(JsonNode standIn) {
        return values.get((standIn.path("json").asBoolean(false) ? "j" : "s") + standIn.path("sha256").asText());
    }

    private static boolean set(ObjectNode record, String pointer, JsonNode value) {
        int slash = pointer.lastIndexOf('/');
        JsonNode parent = record.at(pointer.substring(0, slash));
        String token = unescape(pointer.substring(slash + 1));
        if (parent instanceof ObjectNode object && object.has(token)) {
            object.set(token, value);
            return true;
        }
        if (parent instanceof ArrayNode array && token.matches("\\d+") && Integer.parseInt(token) < array.size()) {
            array.set(Integer.parseInt(token), value);
            return true;
        }
        return false;
    }

    /** Renames the member at {@code pointer} to {@code name}, keeping the members' order. */
    private static boolean rename(ObjectNode record, String pointer, String name) {
        int slash = pointer.lastIndexOf('/');
        String token = unescape(pointer.substring(slash + 1));
        if (!(record.at(pointer.substring(0, slash)) instanceof ObjectNode object) || !object.has(token)) {
            return false;
        }
        ObjectNode renamed = Opa.JSON.createObjectNode();
        object.fields().forEachRemaining(member -> renamed.set(member.getKey().equals(token) ? name
                : member.getKey(), member.getValue()));
        object.removeAll();
        object.setAll(renamed);
        return true;
    }

    private static String unescape(String token) {
        return token.replace("~1", "/").replace("~0", "~");
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
