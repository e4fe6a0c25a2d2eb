package dev.gatehouse.gateway.notice;

import java.util.Locale;

/** Where one notice stands (the {@code notice_receipt.state} column). */
public enum NoticeState {
    /** Received and not yet delivered (or waiting for a host or PDP that was down). */
    PENDING,
    /** Allowed while its thread had an active run; delivered in the aggregate after the turn. */
    COALESCED,
    /** Part of an aggregate message the thread holds. Final. */
    DELIVERED,
    /** The policy refused it; never delivered. Final. */
    REFUSED,
    /** Its revision fence is older than one already received for the same run. Final. */
    STALE;

    /** The column value and ACK word, e.g. {@code delivered}. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static NoticeState of(String wire) {
        return valueOf(wire.toUpperCase(Locale.ROOT));
    }

    /** True for the states the Project Service is told about (ACK). */
    public boolean isFinal() {
        return this == DELIVERED || this == REFUSED || this == STALE;
    }
}
