package dev.gatehouse.gateway.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.gateway.audit.LogFiles;
import dev.gatehouse.facts.PolicyJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/** Reads decision-log records back as a replay does: the values files, and records with their stand-ins put back. */
public final class LoggedRecords {

    private LoggedRecords() {
    }

    /**
     * Every entry of the values files of {@code logFiles}, by key ({@code s<sha256>} for a string, {@code j<sha256>}
     * for a JSON value), after checking each entry's digest against its value.
     */
    public static Map<String, JsonNode> values(List<Path> logFiles) throws IOException {
        Map<String, JsonNode> values = new HashMap<>();
        for (Path file : logFiles) {
            Path valuesFile = LogFiles.valuesFile(file);
            if (Files.exists(valuesFile)) {
                Map<String, JsonNode> inFile = new HashMap<>();
                for (String line : Files.readAllLines(valuesFile)) {
                    entry(PolicyJson.MAPPER.readTree(line), inFile);
                }
                values.putAll(inFile);
            }
        }
        return values;
    }

    /** Adds one values-file entry to {@code into} by key, checking its digest and that it is there once. */
    public static void entry(JsonNode entry, Map<String, JsonNode> into) {
        boolean json = entry.has("json");
        JsonNode value = json ? entry.get("json") : entry.get("value");
        String text = json ? PolicyJson.write(value) : value.textValue();
        String sha256 = entry.get("sha256").asText();
        if (!sha256.equals(sha256(text))) {
            throw new AssertionError("the digest of " + entry + " is not its value's");
        }
        if (into.put((json ? "j" : "s") + sha256, value) != null) {
            throw new AssertionError("a value twice in one values file: " + sha256);
        }
    }

    /**
     * A logged record with every stand-in put back from {@code values} as a replay does: a reduced line by its
     * whole record, then each {@code redacted} value, then each {@code redactedKeys} name (children first); the
     * lists of what was put back are removed. Throws when a value is missing.
     */
    public static ObjectNode restore(JsonNode logged, Map<String, JsonNode> values) {
        ObjectNode record = logged.deepCopy();
        if (record.has("reduced")) {
            record = (ObjectNode) value(values, record.get("reduced")).deepCopy();
        }
        for (JsonNode pointer : record.path("redacted")) {
            JsonNode standIn = record.at(pointer.asText());
            JsonNode value = value(values, standIn).deepCopy();
            replace(record, pointer.asText(), (parent, token) -> {
                if (parent instanceof ObjectNode object) {
                    object.set(token, value);
                } else {
                    ((ArrayNode) parent).set(Integer.parseInt(token), value);
                }
            });
        }
        List<JsonNode> keys = new ArrayList<>();
        record.path("redactedKeys").forEach(keys::add);
        for (int i = keys.size() - 1; i >= 0; i--) {
            String name = value(values, keys.get(i)).textValue();
            replace(record, keys.get(i).get("pointer").asText(), (parent, token) -> {
                ObjectNode object = (ObjectNode) parent;
                ObjectNode renamed = PolicyJson.MAPPER.createObjectNode();
                object.fields().forEachRemaining(member -> renamed.set(
                        member.getKey().equals(token) ? name : member.getKey(), member.getValue()));
                object.removeAll();
                object.setAll(renamed);
            });
        }
        record.remove(List.of("redacted", "redactedKeys"));
        return record;
    }

    private static JsonNode value(Map<String, JsonNode> values, JsonNode standIn) {
        String key = (standIn.path("json").asBoolean(false) ? "j" : "s") + standIn.path("sha256").asText();
        JsonNode value = values.get(key);
        if (value == null) {
            throw new AssertionError("no value " + key + " for the stand-in " + standIn);
        }
        return value;
    }

    private static void replace(ObjectNode record, String pointer, BiConsumer<JsonNode, String> change) {
        int slash = pointer.lastIndexOf('/');
        String token = pointer.substring(slash + 1).replace("~1", "/").replace("~0", "~");
        change.accept(record.at(pointer.substring(0, slash)), token);
    }

    /** Every string and member name in {@code node} (and its children) that is longer than {@code maxBytes}. */
    public static List<String> longStrings(JsonNode node, int maxBytes) {
        List<String> found = new ArrayList<>();
        if (node.isTextual()) {
            if (node.textValue().getBytes(StandardCharsets.UTF_8).length > maxBytes) {
                found.add(node.textValue());
            }
        } else {
            node.fields().forEachRemaining(member -> {
                if (member.getKey().getBytes(StandardCharsets.UTF_8).length > maxBytes) {
                    found.add(member.getKey());
                }
            });
            node.forEach(child -> found.addAll(longStrings(child, maxBytes)));
        }
        return found;
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
