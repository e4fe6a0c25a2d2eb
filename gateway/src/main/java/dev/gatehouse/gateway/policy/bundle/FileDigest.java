package dev.gatehouse.gateway.policy.bundle;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The digest OPA's bundle signing gives one file (OPA bundle signing, "files" of the signature payload): the plain
 * bytes of policy, Wasm and any other file; for the structured files ({@code data.json}, {@code .manifest},
 * {@code signatures.json} by base name) the digest of a canonical form instead, so whitespace and member order do
 * not matter: objects as {@code {"key":value,…}} with keys in code-point order, arrays as {@code [v,…]}, strings in
 * JSON with only {@code "}, {@code \}, control characters, U+2028 and U+2029 escaped (no HTML escaping), numbers as
 * written, and the last of duplicate keys kept. {@code data.yaml} is not supported (such a bundle is refused).
 */
final class FileDigest {

    /** OPA's hashing algorithm names → Java's. */
    private static final Map<String, String> ALGORITHMS = Map.of("MD5", "MD5", "SHA-1", "SHA-1",
            "SHA-224", "SHA-224", "SHA-256", "SHA-256", "SHA-384", "SHA-384", "SHA-512", "SHA-512",
            "SHA-512-224", "SHA-512/224", "SHA-512-256", "SHA-512/256");

    private static final Set<String> STRUCTURED = Set.of("data.json", ".manifest", "signatures.json");

    private static final JsonFactory JSON = new JsonFactory();

    private static final Comparator<String> CODE_POINT_ORDER = (a, b) -> {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int x = a.codePointAt(i);
            int y = b.codePointAt(j);
            if (x != y) {
                return Integer.compare(x, y);
            }
            i += Character.charCount(x);
            j += Character.charCount(y);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    };

    private FileDigest() {
    }

    /**
     * @param name      the file's name in the bundle (no leading {@code /})
     * @param algorithm the signature's {@code algorithm} for the file, e.g. {@code SHA-256}
     * @throws BundleException for an algorithm OPA does not know, a YAML data file, or a structured file that is
     *                         not JSON
     */
    static byte[] digest(String name, byte[] content, String algorithm) throws BundleException {
        String java = ALGORITHMS.get(algorithm);
        if (java == null) {
            throw new BundleException("unsupported hashing algorithm " + algorithm + " for " + name);
        }
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance(java);
        } catch (NoSuchAlgorithmException e) {
            throw new BundleException("hashing algorithm " + algorithm + " is not available", e);
        }
        String base = name.substring(name.lastIndexOf('/') + 1);
        if (base.equals("data.yaml") || base.equals("data.yml")) {
            throw new BundleException(name + ": YAML data files are not supported; use data.json");
        }
        if (!STRUCTURED.contains(base)) {
            return digest.digest(content);
        }
        StringBuilder canonical = new StringBuilder();
        try (JsonParser parser = JSON.createParser(content)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                throw new BundleException(name + " is empty");
            }
            write(canonical, read(parser));
            if (parser.nextToken() != null) {
                throw new BundleException(name + " holds more than one JSON value");
            }
        } catch (IOException e) {
            throw new BundleException(name + " is not valid JSON: " + e.getMessage(), e);
        }
        return digest.digest(canonical.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** A JSON number as written. */
    private record Number(String text) {
    }

    /** Reads the value at the current token: a sorted map, a list, a String, a Number, a Boolean or null. */
    private static Object read(JsonParser parser) throws IOException {
        switch (parser.currentToken()) {
            case START_OBJECT -> {
                Map<String, Object> members = new TreeMap<>(CODE_POINT_ORDER);
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String key = parser.currentName();
                    parser.nextToken();
                    members.put(key, read(parser));
                }
                return members;
            }
            case START_ARRAY -> {
                List<Object> items = new ArrayList<>();
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    items.add(read(parser));
                }
                return items;
            }
            case VALUE_STRING -> {
                return parser.getText();
            }
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
                return new Number(parser.getText());
            }
            case VALUE_TRUE -> {
                return Boolean.TRUE;
            }
            case VALUE_FALSE -> {
                return Boolean.FALSE;
            }
            case VALUE_NULL -> {
                return null;
            }
            default -> throw new IOException("unexpected " + parser.currentToken());
        }
    }

    @SuppressWarnings("unchecked")
    private static void write(StringBuilder out, Object value) {
        if (value instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<String, Object> member : ((Map<String, Object>) map).entrySet()) {
                out.append(first ? "" : ",");
                first = false;
                string(out, member.getKey());
                out.append(':');
                write(out, member.getValue());
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                out.append(i == 0 ? "" : ",");
                write(out, list.get(i));
            }
            out.append(']');
        } else if (value instanceof String text) {
            string(out, text);
        } else if (value instanceof Number number) {
            out.append(number.text());
        } else {
            out.append(value == null ? "null" : value.toString());
        }
    }

    private static void string(StringBuilder out, String text) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\u2028' -> out.append("\\u2028");
                case '\u2029' -> out.append("\\u2029");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
