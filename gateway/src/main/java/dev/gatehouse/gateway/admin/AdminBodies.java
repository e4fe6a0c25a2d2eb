package dev.gatehouse.gateway.admin;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import dev.gatehouse.gateway.Utf8;
import io.micronaut.core.annotation.Nullable;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The one reader of admin API request bodies: a JSON object in UTF-8 whose members are all known, each given once, and
 * of their declared type. An unknown member, a wrong type (no coercion: {@code "yes"} or {@code 1} is not a boolean,
 * {@code 5} is not a string, a number beyond a member's range is not of its type), a member given twice in one
 * object, a body that is not UTF-8 ({@link Utf8}) or not JSON, JSON past a limit of the reader (nested deeper than
 * 1,000 levels, a number of more than 1,000 digits: the message names the limit), or no body at all is refused with
 * an {@code invalid_fields} problem naming the member ({@code wiki.raed}; {@code body} for the whole), before anything
 * is written.
 */
final class AdminBodies {

    /** The field a problem with the body as a whole is reported on. */
    static final String BODY_FIELD = "body";

    private static final ObjectMapper STRICT = strict();
    private static final JsonFactory LENIENT = new JsonFactory();
    private static final String UNPAIRED =
            "Holds an unpaired surrogate escape (such as \\ud800 alone); text must be Unicode.";

    private AdminBodies() {
    }

    /** {@code body} read as {@code type}, or the problem that refuses it. */
    static <T> AdminResult<T> read(@Nullable byte[] bytes, Class<T> type) {
        Optional<String> body = Utf8.decoded(bytes == null ? new byte[0] : bytes);
        if (body.isEmpty()) {
            return AdminResult.refused(FieldProblem.invalid(BODY_FIELD, "Not valid UTF-8."));
        }
        if (body.get().isBlank()) {
            return AdminResult.refused(FieldProblem.invalid(BODY_FIELD, "A JSON object is required."));
        }
        Optional<FieldProblem> member = memberProblem(body.get());
        if (member.isPresent()) {
            return AdminResult.refused(member.get());
        }
        try {
            T value = STRICT.readValue(body.get(), type);
            if (value == null) {
                return AdminResult.refused(FieldProblem.invalid(BODY_FIELD, "A JSON object is required."));
            }
            return new AdminResult.Done<>(value);
        } catch (UnrecognizedPropertyException unknown) {
            return AdminResult.refused(FieldProblem.invalid(path(unknown), "Not a member of this request."));
        } catch (MismatchedInputException wrongType) {
            String field = path(wrongType);
            return AdminResult.refused(FieldProblem.invalid(field.isEmpty() ? BODY_FIELD : field,
                    field.isEmpty() ? "A JSON object is required." : "Wrong type for this member."));
        } catch (JsonMappingException mapping) {
            // A number beyond its member's type (99999999999999999999 for a long) comes wrapped, with its path.
            String field = path(mapping);
            boolean outOfRange = mapping.getCause() instanceof InputCoercionException && !field.isEmpty();
            return AdminResult.refused(FieldProblem.invalid(outOfRange ? field : BODY_FIELD,
                    outOfRange ? "Wrong type for this member." : limit(mapping).orElse("Not valid JSON.")));
        } catch (JacksonException notJson) {
            return AdminResult.refused(FieldProblem.invalid(BODY_FIELD, limit(notJson).orElse("Not valid JSON.")));
        }
    }

    /**
     * What a body that is JSON but past one of the reader's limits is refused with, in the reader's own words less
     * the name of its setting ("Document nesting depth (1001) exceeds the maximum allowed (1000)."); a new user's trial
     * found such a body called "Not valid JSON.". Empty for any other failure.
     */
    private static Optional<String> limit(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof StreamConstraintsException past) {
                return Optional.of(past.getOriginalMessage().replaceAll(", from `[^`]*`", "") + ".");
            }
        }
        return Optional.empty();
    }

    /**
     * The first problem of the body's text that the typed read would not name: a member given twice in one object
     * (named by its path, {@code project.projectServiceProjectId}; Jackson's duplicate detection only says "not
     * JSON"), or a string or member name with an unpaired surrogate escape (named by its path, or {@code body} for a
     * member name or the top level). Empty when there is none, or when the body is no JSON (the read reports that).
     */
    private static Optional<FieldProblem> memberProblem(String body) {
        // The plain factory: with duplicate detection on, the parser would throw before naming the member.
        try (JsonParser parser = LENIENT.createParser(body)) {
            Deque<Set<String>> names = new ArrayDeque<>();
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                if (token == JsonToken.START_OBJECT) {
                    names.push(new HashSet<>());
                } else if (token == JsonToken.END_OBJECT) {
                    names.pop();
                } else if (token == JsonToken.FIELD_NAME && !Utf8.wellFormed(parser.currentName())) {
                    return Optional.of(FieldProblem.invalid(BODY_FIELD, UNPAIRED));
                } else if (token == JsonToken.FIELD_NAME && !names.peek().add(parser.currentName())) {
                    return Optional.of(FieldProblem.invalid(at(parser),
                            "Given twice in one object; each member is given once."));
                } else if (token == JsonToken.VALUE_STRING && !Utf8.wellFormed(parser.getText())) {
                    return Optional.of(FieldProblem.invalid(at(parser), UNPAIRED));
                }
            }
        } catch (IOException | RuntimeException notJson) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    /** Where the parser is, as a problem names a member: {@code project.projectServiceProjectId}, or {@code body}. */
    private static String at(JsonParser parser) {
        String at = parser.getParsingContext().pathAsPointer().toString().substring(1).replace('/', '.');
        return at.isEmpty() ? BODY_FIELD : at;
    }

    private static String path(JsonMappingException problem) {
        return problem.getPath().stream().map(ref -> ref.getFieldName() != null ? ref.getFieldName()
                : String.valueOf(ref.getIndex())).collect(Collectors.joining("."));
    }

    private static ObjectMapper strict() {
        JsonMapper mapper = JsonMapper.builder()
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .build();
        for (LogicalType scalar : new LogicalType[] {LogicalType.Textual, LogicalType.Boolean, LogicalType.Integer}) {
            for (CoercionInputShape shape : new CoercionInputShape[] {CoercionInputShape.Integer,
                    CoercionInputShape.Float, CoercionInputShape.Boolean, CoercionInputShape.String}) {
                if (!shape.name().equals(scalar == LogicalType.Textual ? "String" : scalar.name())) {
                    mapper.coercionConfigFor(scalar).setCoercion(shape, CoercionAction.Fail);
                }
            }
        }
        return mapper;
    }
}
