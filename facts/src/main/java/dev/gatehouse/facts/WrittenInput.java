package dev.gatehouse.facts;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;
import java.util.Optional;

/**
 * A tools/call's decision input as {@link DecisionInputMapper#forCall} writes it, and its JSON text
 * ({@link PolicyJson#write}), written once per call: the decision memo names the input by the text, the engine
 * evaluates it, and the decision log records it, so all three see the same bytes and none writes them again.
 *
 * @param json the input tree; never changed (the decision log redacts a copy)
 * @param text exactly {@code PolicyJson.write(json)}
 */
public record WrittenInput(ObjectNode json, String text) {

    public WrittenInput {
        Objects.requireNonNull(json, "json");
        Objects.requireNonNull(text, "text");
    }

    /**
     * The input of one call, written.
     *
     * @return empty when it cannot be written (arguments nested deeper than {@link ArgumentKeys#MAX_DEPTH}); the
     *         engines then report that as their fault, and the decision log that it cannot write the record
     */
    public static Optional<WrittenInput> forCall(DecisionInput input) {
        try {
            ObjectNode json = DecisionInputMapper.forCall(input);
            return Optional.of(new WrittenInput(json, PolicyJson.write(json)));
        } catch (RuntimeException | StackOverflowError e) {
            return Optional.empty();
        }
    }
}
