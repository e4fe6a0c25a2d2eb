package dev.gatehouse.review;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The reviewer's own files (decision inputs, decision logs and their values files, caller profiles, pages written),
 * read as UTF-8 as RFC 3629 defines it and written whole. Every fault is one {@link ReviewException} sentence naming
 * the file: one that cannot be opened or written (and why, in words, not a {@code java.nio} class name), a file
 * that is not UTF-8 (with the byte offset of the first byte that is not), and for a document an empty file or JSON
 * that does not read as one value ({@link Opa#JSON}: a member given twice is an error too).
 */
public final class TextFile {

    /** {@link Opa#JSON}'s reading, a second value left to {@link #json} to name in words of its own. */
    private static final ObjectReader ONE_VALUE = Opa.JSON.reader()
            .without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    /** Takes each line of a file ({@link #lines}). */
    @FunctionalInterface
    public interface LineReader {
        /**
         * @param number the line's number, from 1
         * @param text   the line without its line break ({@code \n} or {@code \r\n})
         */
        void line(int number, String text);
    }

    /**
     * A JSON-lines file's last line when no line break ends it and it is not whole JSON: in a decision log or its
     * values file, a line cut off by a copy taken while it was being written, or by a crash (the gateway cuts such a
     * line when it opens the file).
     *
     * @param number its line number, from 1
     * @param bytes  how many bytes it holds
     */
    public record UnendedLine(int number, int bytes) {

        /** Its size in words: {@code "1 byte"}, {@code "700 bytes"}. */
        public String size() {
            return bytes == 1 ? "1 byte" : bytes + " bytes";
        }
    }

    private TextFile() {
    }

    /**
     * The whole text of {@code file}.
     *
     * @throws ReviewException when it cannot be read, is empty (no byte), or is not UTF-8
     */
    public static String read(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new ReviewException("cannot read " + file + ": " + reason(file, e));
        }
        if (bytes.length == 0) {
            throw new ReviewException(file + " is empty");
        }
        return decode(file.toString(), bytes, 0);
    }

    /**
     * The one JSON value {@code file} holds.
     *
     * @throws ReviewException as {@link #read}, when it holds only white space, or when it is not one JSON value
     *                         (with the line and column where it stops being one)
     */
    public static JsonNode json(Path file) {
        String text = read(file);
        if (text.isBlank()) {
            throw new ReviewException(file + " is empty (only white space)");
        }
        try (JsonParser parser = Opa.JSON.createParser(text)) {
            JsonNode value = ONE_VALUE.readTree(parser);
            if (parser.nextToken() != null) { // said here: the mapper's own message names its classes and settings
                JsonLocation second = parser.currentTokenLocation();
                throw new ReviewException("cannot read " + file + " as JSON (line " + second.getLineNr()
                        + ", column " + second.getColumnNr() + "): a second JSON value starts there; the file holds"
                        + " one");
            }
            return value;
        } catch (JsonProcessingException e) { // where and what, without the parser's note on redacted sources
            throw new ReviewException("cannot read " + file + " as JSON" + at(e) + ": " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e); // reading a string
        }
    }

    /**
     * Reads {@code file} line by line, without holding all of it (a decision log may be large), each line checked
     * to be UTF-8 before it is handed on.
     *
     * @return the number of bytes read
     * @throws ReviewException when it cannot be read, or a line is not UTF-8 (naming the line and the byte offset
     *                         in the file); the lines before it have been handed on
     */
    public static long lines(Path file, LineReader reader) {
        return lines(file, reader, Optional.empty());
    }

    /**
     * As {@link #lines(Path, LineReader)}, for a JSON-lines file that may have been copied while a line was being
     * written: a last line no line break ends goes to {@code reader} when it is whole JSON (only its line break
     * missing), else to {@code cut}, never refused for bytes that are not UTF-8 (a line cut inside a character).
     */
    public static long jsonLines(Path file, LineReader reader, Consumer<UnendedLine> cut) {
        return lines(file, reader, Optional.of(cut));
    }

    private static long lines(Path file, LineReader reader, Optional<Consumer<UnendedLine>> cut) {
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file))) {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            long offset = 0;
            long lineStart = 0;
            int number = 0;
            for (int b; (b = in.read()) != -1; ) {
                offset++;
                if (b != '\n') {
                    line.write(b);
                    continue;
                }
                reader.line(++number, text(file, line, lineStart, number));
                line.reset();
                lineStart = offset;
            }
            if (line.size() > 0 && cut.isPresent()) {
                Optional<String> whole = wholeJson(file, line.toByteArray(), lineStart);
                if (whole.isPresent()) {
                    reader.line(++number, whole.get());
                } else {
                    cut.get().accept(new UnendedLine(++number, line.size()));
                }
            } else if (line.size() > 0) {
                reader.line(++number, text(file, line, lineStart, number));
            }
            return offset;
        } catch (IOException e) {
            throw new ReviewException("cannot read " + file + ": " + reason(file, e));
        }
    }

    /**
     * Writes {@code text} as the whole of {@code file} in UTF-8, making its missing parent directories.
     *
     * @throws ReviewException when it cannot be written: a directory there, a parent that is a file, no permission,
     *                         a full disk
     */
    public static void write(Path file, String text) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ReviewException("cannot write " + file + ": " + reason(file, e));
        }
    }

    /** {@code " (line L, column C)"} of a JSON error, or nothing when the parser gave no location. */
    public static String at(JsonProcessingException e) {
        JsonLocation at = e.getLocation();
        return at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
    }

    private static String text(Path file, ByteArrayOutputStream line, long lineStart, int number) {
        int length = line.size();
        byte[] bytes = line.toByteArray();
        if (length > 0 && bytes[length - 1] == '\r') {
            length--;
        }
        return decode(file + ":" + number, Arrays.copyOf(bytes, length), lineStart);
    }

    /** {@code bytes} as text when they are UTF-8 and one whole JSON value; empty for a line cut off. */
    private static Optional<String> wholeJson(Path file, byte[] bytes, long offset) {
        try {
            String text = decode(file.toString(), bytes, offset);
            Opa.JSON.readTree(text);
            return Optional.of(text);
        } catch (ReviewException | JsonProcessingException cutOff) { // not UTF-8, or not whole: cut while written
            return Optional.empty();
        }
    }

    /** {@code bytes}, which start at {@code offset} in the file, as text; refused naming {@code where} if not UTF-8. */
    private static String decode(String where, byte[] bytes, long offset) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            throw new ReviewException(where + " is not valid UTF-8: byte offset " + (offset + in.position())
                    + String.format(" of the file (0x%02X)", bytes[in.position()] & 0xff));
        }
        return out.flip().toString();
    }

    /** Why an I/O operation on {@code file} failed, in words. */
    private static String reason(Path file, IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file or directory" + other(file, (FileSystemException) e);
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied" + other(file, (FileSystemException) e);
        }
        if (e instanceof NotDirectoryException || e instanceof FileAlreadyExistsException) {
            return "not a directory: " + ((FileSystemException) e).getFile();
        }
        if (e instanceof FileSystemException fs && fs.getReason() != null) {
            return sentence(fs.getReason()) + other(file, fs);
        }
        return e.getMessage() != null ? sentence(e.getMessage()) : e.getClass().getSimpleName();
    }

    /** The operating system's "Is a directory" as the rest of a sentence: "is a directory". */
    private static String sentence(String reason) {
        return reason.isEmpty() ? reason : Character.toLowerCase(reason.charAt(0)) + reason.substring(1);
    }

    /** {@code " (at <path>)"} when the fault was at another path than {@code file} (a parent directory). */
    private static String other(Path file, FileSystemException e) {
        return e.getFile() == null || Path.of(e.getFile()).equals(file) || Path.of(e.getFile()).equals(
                file.toAbsolutePath()) ? "" : " (" + e.getFile() + ")";
    }
}
