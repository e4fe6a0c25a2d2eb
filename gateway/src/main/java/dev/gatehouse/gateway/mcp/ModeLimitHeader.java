package dev.gatehouse.gateway.mcp;

import dev.gatehouse.gateway.policy.api.Modes;
import java.util.List;
import java.util.Optional;

/**
 * Parses {@code T3-Mode-Limit: <runtime>/<interaction>} (docs/domain.md §1). Only the spelling is checked here;
 * whom it narrows is for the policy, which never lets it widen a limit.
 */
final class ModeLimitHeader {

    /** The header name (HTTP header names are case-insensitive). */
    public static final String NAME = "T3-Mode-Limit";

    private static final List<String> RUNTIME = List.of("approval-required", "auto-accept-edits", "auto",
            "full-access");
    private static final List<String> INTERACTION = List.of("plan", "default");

    private ModeLimitHeader() {
    }

    /** Thrown for a header that is present but not exactly {@code <runtime>/<interaction>}; answered with HTTP 400. */
    public static final class Malformed extends Exception {
        public Malformed() {
            super("invalid_mode_limit", null, false, false);
        }
    }

    /**
     * @param values every value of the header in the request (a repeated header is malformed)
     * @return the limit, or empty when the header is absent
     * @throws Malformed when present but not one {@code runtime/interaction} pair from docs/domain.md §2
     */
    public static Optional<Modes> parse(List<String> values) throws Malformed {
        if (values.isEmpty()) {
            return Optional.empty();
        }
        if (values.size() != 1) {
            throw new Malformed();
        }
        String[] parts = values.get(0).trim().split("/", -1);
        if (parts.length != 2 || !RUNTIME.contains(parts[0]) || !INTERACTION.contains(parts[1])) {
            throw new Malformed();
        }
        return Optional.of(new Modes(parts[0], parts[1]));
    }
}
