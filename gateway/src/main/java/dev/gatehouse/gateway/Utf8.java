package dev.gatehouse.gateway;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Whether bytes are UTF-8 as RFC 3629 defines it, by the JDK's decoder: no overlong forms ({@code C0 AF} is not
 * {@code /}), no encoded surrogates (CESU-8), nothing above U+10FFFF, no stray continuation bytes. Jackson's parser
 * decodes some of these leniently, so a body (an MCP message, an admin request) is checked before it is parsed;
 * every layer after it then reads the same characters the client's bytes mean.
 */
public final class Utf8 {

    private Utf8() {
    }

    /** True when {@code bytes} are well-formed UTF-8 throughout. */
    public static boolean strict(byte[] bytes) {
        return decode(bytes).isPresent();
    }

    /** The text {@code bytes} encode; empty when they are not well-formed UTF-8 throughout. */
    public static Optional<String> decoded(byte[] bytes) {
        return decode(bytes).map(CharBuffer::toString);
    }

    private static Optional<CharBuffer> decode(byte[] bytes) {
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)));
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }
}
