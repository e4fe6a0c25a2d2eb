package dev.gatehouse.gateway;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
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
        for (byte b : bytes) {
            if (b < 0) {
                return decodes(bytes);
            }
        }
        return true; // ASCII is well-formed UTF-8: almost every request body, checked without decoding it
    }

    /** The text {@code bytes} encode; empty when they are not well-formed UTF-8 throughout. */
    public static Optional<String> decoded(byte[] bytes) {
        return decode(bytes).map(CharBuffer::toString);
    }

    /**
     * True when {@code text} has no unpaired UTF-16 surrogate, so it is Unicode text and encodes to UTF-8 as it is.
     * Well-formed UTF-8 bytes never decode to one, but a JSON escape does ({@code "\ud800"} alone): I-JSON
     * (RFC 7493 §2.1) forbids them, and PostgreSQL and every UTF-8 writer would store a {@code ?} instead.
     */
    public static boolean wellFormed(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1));
            if (pair) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    /** Decodes {@code bytes} through a small window, the text itself not being needed: whether they decode at all. */
    private static boolean decodes(byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer window = CharBuffer.allocate(1024);
        while (true) {
            CoderResult result = decoder.decode(in, window, true);
            if (result.isError()) {
                return false;
            }
            if (result.isUnderflow()) {
                return !decoder.flush(window).isError();
            }
            window.clear(); // overflow: the window is full, its text is not kept
        }
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
