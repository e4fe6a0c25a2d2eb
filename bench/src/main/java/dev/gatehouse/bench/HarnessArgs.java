package dev.gatehouse.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The {@code key=value} arguments the load harnesses take on their command line. */
final class HarnessArgs {

    private HarnessArgs() {
    }

    /** Each argument split at its first {@code =}, in order; a later key replaces an earlier one. */
    static Map<String, String> parse(String[] argv) {
        Map<String, String> args = new LinkedHashMap<>();
        for (String arg : argv) {
            int eq = arg.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("not key=value: " + arg);
            }
            args.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        return args;
    }

    /** The JVM options in argument {@code key}, split at white space; none when absent or blank. */
    static List<String> options(Map<String, String> args, String key) {
        String options = args.getOrDefault(key, "");
        return options.isBlank() ? List.of() : List.of(options.trim().split("\\s+"));
    }
}
