package dev.gatehouse.gateway.auth;

import java.util.List;

/** The approved ceilings an outside agent's token may carry (docs/domain.md §1), spelled as on the wire. */
public final class ModeCeilings {

    /** An outside agent that may call {@code read} class tools only. */
    public static final String READ_ONLY = "read-only";

    /** Every accepted ceiling: {@link #READ_ONLY} and the four runtime modes of docs/domain.md §2. */
    public static final List<String> ALL = List.of(READ_ONLY, "approval-required", "auto-accept-edits", "auto",
            "full-access");

    private ModeCeilings() {
    }
}
