package dev.gatehouse.facade.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Reads a credential file: its content without surrounding whitespace. */
final class CredentialFile {

    private CredentialFile() {
    }

    /** The credential, or empty when the file is missing, unreadable or blank (the service then answers 401). */
    static Optional<String> read(Path file) {
        try {
            String value = Files.readString(file, StandardCharsets.UTF_8).strip();
            return value.isEmpty() ? Optional.empty() : Optional.of(value);
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
