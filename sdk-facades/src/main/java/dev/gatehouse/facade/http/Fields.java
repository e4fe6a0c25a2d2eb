package dev.gatehouse.facade.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Typed, required-or-optional access to the members of a service answer; wrong shapes are {@link Undecodable}. */
public final class Fields {

    private Fields() {
    }

    /** A required string member. */
    public static String text(JsonNode node, String field) throws Undecodable {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw new Undecodable("expected string member '" + field + "'");
        }
        return value.textValue();
    }

    /** An optional string member: absent or null is empty; another type is undecodable. */
    public static Optional<String> optionalText(JsonNode node, String field) throws Undecodable {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isTextual()) {
            throw new Undecodable("expected string member '" + field + "'");
        }
        return Optional.of(value.textValue());
    }

    /** A required boolean member. */
    public static boolean bool(JsonNode node, String field) throws Undecodable {
        JsonNode value = node.get(field);
        if (value == null || !value.isBoolean()) {
            throw new Undecodable("expected boolean member '" + field + "'");
        }
        return value.booleanValue();
    }

    /** A required integer member that fits an {@code int}. */
    public static int integer(JsonNode node, String field) throws Undecodable {
        JsonNode value = node.get(field);
        if (value == null || !value.isIntegralNumber() || !value.canConvertToInt()) {
            throw new Undecodable("expected integer member '" + field + "'");
        }
        return value.intValue();
    }

    /** An optional integer member: absent or null is empty. */
    public static Optional<Integer> optionalInteger(JsonNode node, String field) throws Undecodable {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        return Optional.of(integer(node, field));
    }

    /** A required object member. */
    public static JsonNode object(JsonNode node, String field) throws Undecodable {
        JsonNode value = node.get(field);
        if (value == null || !value.isObject()) {
            throw new Undecodable("expected object member '" + field + "'");
        }
        return value;
    }

    /** A required array member, each element projected by {@code element}. */
    public static <T> List<T> list(JsonNode node, String field, Projection<T> element) throws Undecodable {
        JsonNode value = node.get(field);
        if (value == null || !value.isArray()) {
            throw new Undecodable("expected array member '" + field + "'");
        }
        List<T> out = new ArrayList<>(value.size());
        for (JsonNode item : value) {
            if (!item.isObject() && !item.isTextual()) {
                throw new Undecodable("unexpected element in '" + field + "'");
            }
            out.add(element.project(item));
        }
        return out;
    }
}
