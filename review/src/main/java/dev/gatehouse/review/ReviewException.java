package dev.gatehouse.review;

/**
 * A review that cannot be made (bad arguments, no OPA binary, an unreadable file or bundle, opa failing or taking too
 * long), as one sentence: the CLI prints it and exits 2, the console shows it in place of the answer.
 */
public final class ReviewException extends RuntimeException {

    public ReviewException(String message) {
        super(message);
    }
}
