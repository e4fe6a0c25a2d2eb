package dev.gatehouse.cli;

/** A failure the CLI reports as one line and exit code 2 (bad arguments, missing OPA, unreadable files). */
final class CliException extends RuntimeException {

    CliException(String message) {
        super(message);
    }
}
