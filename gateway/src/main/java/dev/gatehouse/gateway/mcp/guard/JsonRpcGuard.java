package dev.gatehouse.gateway.mcp.guard;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.lang.UProperty;
import com.ibm.icu.text.Normalizer2;
import com.ibm.icu.text.SpoofChecker;
import com.ibm.icu.text.UTF16;
import com.ibm.icu.util.ULocale;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * The JSON-RPC part of the transport guard, run on the buffered body before
 * the gate or the SDK see it, so that every layer after it agrees on what the message is:
 * <ul>
 * <li>invalid JSON or trailing content: HTTP 400, -32700;</li>
 * <li>a batch (top-level array; MCP has had no batching since 2025-06-18) or any non-object: HTTP 400, -32600;</li>
 * <li>a member name repeated in one object, also when the repeats differ only in case: HTTP 400, -32600;</li>
 * <li>at the two protocol levels (the message object, and the object that is its {@code params} member), a member
 * name that {@linkplain #fold folds} to the fold of one of {@link #PROTOCOL_MEMBERS} but is not spelled exactly so
 * (e.g. {@code "p\u0430rams"} with a Cyrillic a, {@code "params\u200b"}, fullwidth {@code "ＰＡＲＡＭＳ"},
 * {@code " params"}, {@code "par_ams"}, or {@code "meta"} beside or instead of {@code "_meta"}), or two member
 * names that fold alike: HTTP 400, -32600. A look-alike is refused also when the real member is absent, so it is
 * never silently ignored by a layer that reads only the exact name. Objects below those levels (a tool's
 * {@code arguments}, {@code _meta}'s contents, results) keep only the case-insensitive duplicate rule;</li>
 * <li>nesting deeper than the limit: HTTP 400, -32600;</li>
 * <li>{@code jsonrpc} other than {@code "2.0"}, a non-string method, non-object params, an id that is not a string
 * or an integer ({@code null}, fractions, booleans, objects, arrays), or a request method without an id that is not
 * a notification: HTTP 400, -32600 with {@code "id": null}.</li>
 * </ul>
 */
public final class JsonRpcGuard {

    /** The JSON-RPC 2.0 and MCP member names whose look-alikes are refused at the protocol levels. */
    public static final List<String> PROTOCOL_MEMBERS =
            List.of("jsonrpc", "method", "params", "id", "name", "arguments", "_meta");

    private static final Normalizer2 NFKC_CASEFOLD = Normalizer2.getNFKCCasefoldInstance();
    private static final Normalizer2 NFKC = Normalizer2.getNFKCInstance();
    private static final Normalizer2 NFD = Normalizer2.getNFDInstance();
    /** UTS #39 confusable skeletons (ICU's confusables data); immutable once built, so shared by all threads. */
    private static final SpoofChecker CONFUSABLES = new SpoofChecker.Builder().build();
    /**
     * {@link #readings} of each ASCII code point, worked out once: almost every member name is ASCII, and reading
     * each of its characters through ICU's skeletons again per request was most of the guard's time.
     */
    private static final List<List<String>> ASCII_READINGS = IntStream.range(0, 0x80)
            .mapToObj(JsonRpcGuard::computedReadings).toList();
    /** The fold of each protocol member name, to the name. */
    private static final Map<String, String> PROTOCOL_FOLDS = protocolFolds();

    private final JsonFactory factory;
    private final ObjectMapper mapper;
    private final int maxDepth;

    /** @param maxDepth deepest accepted nesting of arrays and objects */
    public JsonRpcGuard(int maxDepth) {
        this.maxDepth = maxDepth;
        // Jackson's own limit backs up the streaming check below with one level of slack.
        this.factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(maxDepth + 1).build())
                .build();
        // Numbers are read exactly (a fraction as BigDecimal, as written): business data passes through the gateway
        // unchanged, and 1e400 is not turned into Infinity on its way to a service.
        this.mapper = new ObjectMapper(factory).enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .configure(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES, false);
    }

    /** The outcome: a message that passed, or the rejection to send. */
    public sealed interface Result {
        record Passed(JsonRpcMessage message) implements Result {
        }

        record Refused(Rejection rejection) implements Result {
        }
    }

    /** Checks and parses one request body. */
    public Result check(byte[] body) {
        try {
            Optional<Rejection> shape = checkShape(body);
            if (shape.isPresent()) {
                return new Result.Refused(shape.get());
            }
            JsonNode tree = mapper.readTree(body);
            if (tree == null || tree.isMissingNode()) {
                return refused(Rejection.PARSE_ERROR, "empty body");
            }
            if (tree.isArray()) {
                return refused(Rejection.INVALID_REQUEST, "batch requests are not supported");
            }
            if (!tree.isObject()) {
                return refused(Rejection.INVALID_REQUEST, "a JSON-RPC message must be an object");
            }
            return message((ObjectNode) tree);
        } catch (StreamConstraintsException e) {
            return refused(Rejection.INVALID_REQUEST, exceeded(e));
        } catch (IOException e) {
            return refused(Rejection.PARSE_ERROR, "parse error");
        }
    }

    /**
     * Which of Jackson's read limits the body broke (nesting, and Jackson's defaults for the length of one string,
     * member name or number), named from its message, which is the only place Jackson says which one it was.
     */
    static String exceeded(StreamConstraintsException e) {
        String what = String.valueOf(e.getOriginalMessage());
        if (what.contains("nesting depth")) {
            return "request nested too deeply";
        }
        if (what.startsWith("Name length")) {
            return "a member name in the request is too long";
        }
        if (what.startsWith("String value length")) {
            return "a string in the request is too long";
        }
        if (what.startsWith("Number value length")) {
            return "a number in the request has too many digits";
        }
        return "the request exceeds a JSON size limit";
    }

    private Result message(ObjectNode tree) {
        JsonNode version = tree.get("jsonrpc");
        if (version == null || !version.isTextual() || !"2.0".equals(version.textValue())) {
            return refused(Rejection.INVALID_REQUEST, "jsonrpc must be \"2.0\"");
        }
        Optional<Object> id = Optional.empty();
        if (tree.has("id")) {
            JsonNode node = tree.get("id");
            if (node.isTextual()) {
                id = Optional.of(node.textValue());
            } else if (node.isIntegralNumber() && node.canConvertToLong()) {
                id = Optional.of(node.longValue());
            } else {
                return refused(Rejection.INVALID_REQUEST, "id must be a string or an integer");
            }
        }
        Optional<String> method = Optional.empty();
        if (tree.has("method")) {
            if (!tree.get("method").isTextual()) {
                return refused(Rejection.INVALID_REQUEST, "method must be a string");
            }
            method = Optional.of(tree.get("method").textValue());
            if (id.isEmpty() && !method.get().startsWith("notifications/")) {
                return refused(Rejection.INVALID_REQUEST, "a request needs an id");
            }
        } else if (id.isEmpty() || !(tree.has("result") || tree.has("error"))) {
            return refused(Rejection.INVALID_REQUEST, "not a JSON-RPC request, notification or response");
        }
        Optional<ObjectNode> params = Optional.empty();
        if (tree.has("params")) {
            if (!tree.get("params").isObject()) {
                return new Result.Refused(Rejection.jsonRpc(400, Rejection.INVALID_REQUEST, "params must be an object")
                        .withId(id));
            }
            params = Optional.of((ObjectNode) tree.get("params"));
        }
        return new Result.Passed(new JsonRpcMessage(tree, id, method, params));
    }

    /** One object being read: its member names lower-cased, and at a protocol level their folds. */
    private static final class Frame {
        final Set<String> lowerNames = new HashSet<>();
        final Set<String> folds;
        final boolean root;
        String member;

        Frame(boolean protocolLevel, boolean root) {
            this.folds = protocolLevel ? new HashSet<>() : null;
            this.root = root;
        }
    }

    /**
     * One streaming pass: depth, member names unique per object when compared without case, and at the protocol
     * levels no look-alike of a protocol member name and no two names that fold alike.
     */
    private Optional<Rejection> checkShape(byte[] body) throws IOException {
        Deque<Frame> objects = new ArrayDeque<>();
        int depth = 0;
        try (JsonParser parser = factory.createParser(body)) {
            JsonToken token;
            while ((token = parser.nextToken()) != null) {
                switch (token) {
                    case START_OBJECT, START_ARRAY -> {
                        if (++depth > maxDepth) {
                            return Optional.of(Rejection.jsonRpc(400, Rejection.INVALID_REQUEST,
                                    "request nested too deeply"));
                        }
                        if (token == JsonToken.START_OBJECT) {
                            boolean root = depth == 1;
                            boolean params = depth == 2 && !objects.isEmpty() && objects.peek().root
                                    && "params".equals(objects.peek().member);
                            objects.push(new Frame(root || params, root));
                        }
                    }
                    case END_OBJECT -> {
                        depth--;
                        objects.pop();
                    }
                    case END_ARRAY -> depth--;
                    case FIELD_NAME -> {
                        Frame frame = objects.peek();
                        String name = parser.currentName();
                        frame.member = name;
                        if (!frame.lowerNames.add(name.toLowerCase(Locale.ROOT))) {
                            return Optional.of(Rejection.jsonRpc(400, Rejection.INVALID_REQUEST,
                                    "duplicate member name"));
                        }
                        if (frame.folds != null) {
                            String folded = fold(name);
                            if (isLookAlike(name)) {
                                return Optional.of(Rejection.jsonRpc(400, Rejection.INVALID_REQUEST,
                                        "member name looks like a protocol member name"));
                            }
                            if (!frame.folds.add(folded)) {
                                return Optional.of(Rejection.jsonRpc(400, Rejection.INVALID_REQUEST,
                                        "duplicate member name"));
                            }
                        }
                    }
                    default -> {
                    }
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The form in which two member names that look alike are equal:
     * <ol>
     * <li>Unicode NFKC, then default-ignorable code points removed (format characters such as U+200B–U+200F,
     * U+2060, U+FEFF, U+00AD, and variation selectors), then canonical decomposition (NFD);</li>
     * <li>each code point replaced by the letters and digits of its full case fold read through the UTS #39
     * confusable skeleton (ICU's confusables data) twice, with case folding after each round (so {@code М} →
     * {@code M} → {@code m} → {@code rn}): Cyrillic {@code а с е і ј о р ѕ у х ԁ һ г}, Greek {@code α ι ο ρ υ ν η},
     * the digit {@code 0} and the like become Latin letters, and {@code m} becomes {@code rn} on both sides of a
     * comparison. When that is not ASCII but the same for the code point's upper case is (Cyrillic
     * {@code м т н к в}, Greek {@code τ κ μ ε}), the latter is used: a small letter whose capital looks like a Latin
     * capital is a look-alike too;</li>
     * <li>only letters and digits are kept: whitespace anywhere, separators ({@code _ - .}), other punctuation,
     * symbols and combining marks contribute nothing, so {@code " params"}, {@code "par_ams"}, {@code "pàrams"} and
     * {@code "meta"} fold like {@code params} and {@code _meta}.</li>
     * </ol>
     * Two members at one protocol level whose folds are equal are duplicates. Against the seven protocol names,
     * {@link #looksLike} also tries each code point's reading before case folding.
     */
    static String fold(String name) {
        StringBuilder folded = new StringBuilder();
        codePoints(name).forEach(cp -> folded.append(readings(cp).get(0)));
        return folded.toString();
    }

    /**
     * True when some reading of each code point of {@code name} spells {@code target} (a fold): besides the one
     * {@link #fold} takes, a code point is also read through its own skeleton before case folding, so that a
     * Greek capital {@code Ν} (whose small letter {@code ν} looks like {@code v}) still reads as {@code n}.
     */
    static boolean looksLike(String name, String target) {
        Set<Integer> reachable = Set.of(0);
        for (int cp : codePoints(name).toArray()) {
            Set<Integer> next = new HashSet<>();
            for (int offset : reachable) {
                for (String reading : readings(cp)) {
                    if (target.startsWith(reading, offset)) {
                        next.add(offset + reading.length());
                    }
                }
            }
            if (next.isEmpty()) {
                return false;
            }
            reachable = next;
        }
        return reachable.contains(target.length());
    }

    /** NFKC, default-ignorable code points removed, canonically decomposed; case kept. */
    private static IntStream codePoints(String name) {
        if (isAscii(name)) {
            return name.chars(); // ASCII is unchanged by NFKC and NFD and holds no default-ignorable code point
        }
        String kept = NFKC.normalize(name).codePoints()
                .filter(cp -> !UCharacter.hasBinaryProperty(cp, UProperty.DEFAULT_IGNORABLE_CODE_POINT))
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        return NFD.normalize(kept).codePoints();
    }

    /**
     * The letters and digits one code point may be read as, the one {@link #fold} uses first: that of its case fold,
     * or of its upper case when only that is ASCII; then, when ASCII, those of the code point itself and its upper
     * case. Empty for a separator, space, mark or the like.
     */
    private static List<String> readings(int codePoint) {
        return codePoint < ASCII_READINGS.size() ? ASCII_READINGS.get(codePoint) : computedReadings(codePoint);
    }

    /** {@link #readings} worked out through ICU; for ASCII done once, at class initialisation. */
    static List<String> computedReadings(int codePoint) {
        String character = UTF16.valueOf(codePoint);
        String upper = UCharacter.toUpperCase(ULocale.ROOT, character);
        String folded = lettersAndDigits(UCharacter.foldCase(character, true));
        String capital = lettersAndDigits(upper);
        String primary = isAscii(folded) || !isAscii(capital) ? folded : capital;
        Set<String> readings = new LinkedHashSet<>();
        readings.add(primary);
        for (String other : List.of(lettersAndDigits(character), capital)) {
            if (isAscii(other)) {
                readings.add(other);
            }
        }
        return List.copyOf(readings);
    }

    /** Skeleton, case fold, skeleton again ({@code М} → {@code M} → {@code m} → {@code rn}), letters and digits only. */
    private static String lettersAndDigits(String s) {
        String skeleton = NFKC_CASEFOLD.normalize(CONFUSABLES.getSkeleton(
                NFKC_CASEFOLD.normalize(CONFUSABLES.getSkeleton(s))));
        StringBuilder kept = new StringBuilder();
        NFD.normalize(skeleton).codePoints().filter(UCharacter::isLetterOrDigit).forEach(kept::appendCodePoint);
        return kept.toString();
    }

    private static boolean isAscii(String s) {
        return !s.isEmpty() && s.chars().allMatch(c -> c < 0x80);
    }

    /** A member name that reads as a protocol member name without being spelled exactly so. */
    static boolean isLookAlike(String name) {
        if (PROTOCOL_MEMBERS.contains(name)) {
            return false;
        }
        for (Map.Entry<String, String> protocol : PROTOCOL_FOLDS.entrySet()) {
            if (looksLike(name, protocol.getKey())) {
                return true;
            }
        }
        return false;
    }

    private static Map<String, String> protocolFolds() {
        Map<String, String> folds = new HashMap<>();
        for (String name : PROTOCOL_MEMBERS) {
            if (folds.put(fold(name), name) != null) {
                throw new IllegalStateException("two protocol member names fold alike: " + name);
            }
        }
        return Map.copyOf(folds);
    }

    private static Result refused(int code, String message) {
        return new Result.Refused(Rejection.jsonRpc(400, code, message));
    }
}
