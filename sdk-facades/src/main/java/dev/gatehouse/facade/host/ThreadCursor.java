package dev.gatehouse.facade.host;

import java.util.Optional;

/**
 * A position in the host's thread events feed, written {@code <history>:<position>} (schemas/services/README.md,
 * "Thread events"): {@code history} names one unbroken sequence of events, {@code position} counts its events one by
 * one from 1 ({@code 0}: before the first). Read only to check that a page continues where the reader stood.
 *
 * @param history  the sequence the position belongs to
 * @param position the number of events of that sequence up to and including this one
 */
public record ThreadCursor(String history, long position) {

    /** The cursor {@code text} spells, or empty when it is not written as the contract says. */
    public static Optional<ThreadCursor> parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon < 1 || colon == text.length() - 1 || text.length() - colon > 19) {
            return Optional.empty();
        }
        for (int i = colon + 1; i < text.length(); i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') {
                return Optional.empty();
            }
        }
        return Optional.of(new ThreadCursor(text.substring(0, colon), Long.parseLong(text.substring(colon + 1))));
    }

    /** True when {@code next} is the event right after this position in the same history. */
    public boolean isFollowedBy(ThreadCursor next) {
        return next.history.equals(history) && next.position == position + 1;
    }
}
