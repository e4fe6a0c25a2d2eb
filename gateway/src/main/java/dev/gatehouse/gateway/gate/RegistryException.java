package dev.gatehouse.gateway.gate;

import java.util.List;

/**
 * Start-up failure of the tool registry (style card 9): the access table, the schemas and the handler beans do not
 * match one to one. The message names every offending tool.
 */
public final class RegistryException extends RuntimeException {

    private final List<String> problems;

    public RegistryException(List<String> problems) {
        super("tool registry does not match the access table: " + String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    /** One line per problem, each naming the tool. */
    public List<String> problems() {
        return problems;
    }
}
