package dev.gatehouse.gateway.gate;

import java.util.List;

/**
 * Start-up failure of the handlers (style card 9): two handler beans claim one tool name. The message names every
 * offending tool. (Rows and schemas come with each revision, which is refused, not start-up, when they do not
 * match the handlers: {@link ToolTables}.)
 */
public final class RegistryException extends RuntimeException {

    private final List<String> problems;

    public RegistryException(List<String> problems) {
        super("tool handlers are ambiguous: " + String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    /** One line per problem, each naming the tool. */
    public List<String> problems() {
        return problems;
    }
}
