package dev.gatehouse.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The caller profiles of the matrix: one reviewed file, {@code policy-tests/review/profiles.json} ({@code {profiles:
 * [{name, note, input}], arguments: {<tool>: {...}}}}), read from the checkout by the CLI and from this library's jar
 * by the gateway ({@link #bundled()}), so both compute the same matrix.
 *
 * @param profiles  the profiles in file order, names unique
 * @param arguments minimal arguments per tool; a tool missing here is called with {@code {}}
 */
public record Profiles(List<Matrix.Profile> profiles, JsonNode arguments) {

    /** Where the file travels in the jar. */
    static final String RESOURCE = "/dev/gatehouse/review/profiles.json";

    public Profiles {
        profiles = List.copyOf(profiles);
    }

    /**
     * Reads a profiles file.
     *
     * @throws ReviewException when it cannot be read ({@link TextFile#json}), or a profile lacks a unique name or an
     *                         input object
     */
    public static Profiles load(Path file) {
        return parse(TextFile.json(file), file.toString());
    }

    /** The profiles this library was built with (the checkout's file at build time). */
    public static Profiles bundled() {
        try (InputStream in = Profiles.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new ReviewException("the review library was built without " + RESOURCE);
            }
            return parse(Opa.JSON.readTree(in), RESOURCE);
        } catch (IOException e) {
            throw new ReviewException("cannot read " + RESOURCE + ": " + e.getMessage());
        }
    }

    /** The minimal arguments of {@code tool}, a fresh copy ({@code {}} when the file names none). */
    public ObjectNode arguments(String tool) {
        JsonNode given = arguments.path(tool);
        return given.isObject() ? ((ObjectNode) given).deepCopy() : Opa.JSON.createObjectNode();
    }

    private static Profiles parse(JsonNode doc, String where) {
        List<Matrix.Profile> profiles = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (JsonNode p : doc.path("profiles")) {
            String name = p.path("name").asText("");
            if (name.isEmpty() || !p.path("input").isObject() || !names.add(name)) {
                throw new ReviewException(where + ": every profile needs a unique name and an input object");
            }
            profiles.add(new Matrix.Profile(name, p.path("note").asText(""), (ObjectNode) p.get("input")));
        }
        if (profiles.isEmpty()) {
            throw new ReviewException(where + ": no profiles");
        }
        return new Profiles(profiles, doc.path("arguments"));
    }
}
