package dev.gatehouse.gateway.audit.shipping;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.facts.PolicyJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Where shipping stands: the next record to ship starts at byte {@code offset} of the log file whose first record
 * has the id {@code firstId}, last seen under the name {@code name} (a log file keeps its first record when it is
 * renamed by a rotation, so the id finds it again). Kept as {@code {"name", "firstId", "offset"}} in
 * {@code <stem>.shipped.json} beside the log, replaced whole (written aside, then renamed) each time it moves.
 *
 * @param name    the file's name when last seen; {@code null} before anything was shipped
 * @param firstId the {@code decision_id} of its first record; {@code null} before anything was shipped
 * @param offset  bytes of that file already shipped, always at a line start
 */
record ShipCursor(String name, String firstId, long offset) {

    /** Nothing shipped yet: start at the oldest file there is. */
    static final ShipCursor START = new ShipCursor(null, null, 0);

    /** The cursor stored in {@code file}, or {@link #START} when there is none. */
    static ShipCursor load(Path file) throws IOException {
        if (!Files.exists(file)) {
            return START;
        }
        JsonNode json = PolicyJson.MAPPER.readTree(Files.readString(file, StandardCharsets.UTF_8));
        return new ShipCursor(json.path("name").asText(null), json.path("firstId").asText(null),
                json.path("offset").asLong(0));
    }

    void save(Path file) throws IOException {
        ObjectNode json = PolicyJson.MAPPER.createObjectNode().put("name", name).put("firstId", firstId)
                .put("offset", offset);
        Path aside = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(aside, PolicyJson.write(json), StandardCharsets.UTF_8);
        try {
            Files.move(aside, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(aside, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** The same file under another name. */
    ShipCursor renamed(String newName) {
        return new ShipCursor(newName, firstId, offset);
    }
}
