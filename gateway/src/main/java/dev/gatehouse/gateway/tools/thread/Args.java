package dev.gatehouse.gateway.tools.thread;

import java.util.Map;
import java.util.Optional;

/** Reads schema-valid tool arguments (schemas/tools/*.input.json); business data only, never identity. */
final class Args {

    private Args() {
    }

    /** A required string argument (the schema guarantees it is present). */
    static String text(Map<String, Object> arguments, String name) {
        return (String) arguments.get(name);
    }

    /** An optional string argument. */
    static Optional<String> optionalText(Map<String, Object> arguments, String name) {
        return Optional.ofNullable((String) arguments.get(name));
    }
}
