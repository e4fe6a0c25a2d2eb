package dev.gatehouse.local.storage;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A store's whole state as one JSON file, replaced atomically on every change ({@link AtomicFiles}), so a crash
 * leaves the previous or the new state.
 *
 * @param <S> the state type, a Jackson-mappable class
 */
public final class JsonState<S> {

    /** Fractions are read back as written (BigDecimal), so a restart does not round stored business data. */
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private final Path file;
    private final Class<S> type;

    public JsonState(Path file, Class<S> type) {
        this.file = file;
        this.type = type;
    }

    /** The stored state, or empty when none was saved yet. */
    public Optional<S> load() {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readValue(file.toFile(), type));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** Replaces the stored state. */
    public void save(S state) {
        try {
            AtomicFiles.replace(file, JSON.writeValueAsBytes(state));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
