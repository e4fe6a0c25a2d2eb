package dev.gatehouse.facts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;
import java.util.Optional;

/**
 * A call's arguments as its decision input's JSON carries them ({@link DecisionArguments}), built by the one walk over
 * them ({@link ArgumentWalk}) so that writing the input only sets these nodes. They are set into every input written
 * from them, not copied: nothing changes them, and whoever changes a written input's tree (the decision log redacts
 * one) changes a copy of it.
 *
 * @param json    the {@code arguments} member: the arguments with {@code null} for each string not sent
 *                ({@link OmittedArgument}); empty when they nest deeper than {@link ArgumentKeys#MAX_DEPTH}, which a
 *                decision input cannot hold ({@link DecisionInputMapper#forCall} refuses it)
 * @param omitted the {@code omittedArguments} member: the JSON Pointer (RFC 6901, relative to the arguments; {@code ""}
 *                for the whole) of each string not sent, in document order, with its {@code length} and
 *                {@code sha256}; empty when every string is sent
 */
public record SentArguments(Optional<JsonNode> json, ObjectNode omitted) {

    public SentArguments {
        Objects.requireNonNull(json, "json");
        Objects.requireNonNull(omitted, "omitted");
    }
}
