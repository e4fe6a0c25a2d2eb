package dev.gatehouse.gateway.gate;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.gatehouse.facts.ArgumentCheck;
import dev.gatehouse.gateway.policy.api.EnforcementCheck;
import dev.gatehouse.gateway.policy.api.PolicyContents;
import dev.gatehouse.gateway.tools.ToolHandler;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@link ToolTable} of each revision, joined once: when the PDP asks whether a revision can be enforced
 * ({@link EnforcementCheck}, before it activates it), and kept for as long as that revision's contents are in use
 * (weakly, by identity), so a call looks its table up instead of compiling schemas again.
 *
 * <p>The handlers are this gateway's code and fixed at start-up: two handlers of one name stop start-up
 * ({@link RegistryException}).
 */
@Singleton
public class ToolTables implements EnforcementCheck {

    private final Map<String, ToolHandler> handlers;
    private final ArgumentCheck check;
    private final Cache<PolicyContents, ToolTable> joined = Caffeine.newBuilder().weakKeys()
            .executor(Runnable::run).build();

    /**
     * @param handlers every handler bean
     * @param check    compiles the schemas
     * @throws RegistryException when two handlers have one name
     */
    public ToolTables(Collection<? extends ToolHandler> handlers, ArgumentCheck check) {
        this.check = check;
        Map<String, ToolHandler> byName = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (ToolHandler handler : handlers) {
            ToolHandler previous = byName.putIfAbsent(handler.name(), handler);
            if (previous != null) {
                problems.add("duplicate handler for " + handler.name() + ": " + previous.getClass().getName()
                        + " and " + handler.getClass().getName());
            }
        }
        if (!problems.isEmpty()) {
            throw new RegistryException(problems);
        }
        this.handlers = Map.copyOf(byName);
    }

    @Override
    public List<String> problems(PolicyContents contents) {
        ToolTable.Join join = ToolTable.join(contents, handlers, check);
        if (join instanceof ToolTable.Joined table) {
            joined.put(contents, table.table());
            return List.of();
        }
        return ((ToolTable.Problems) join).problems();
    }

    /**
     * The table of a revision whose contents passed {@link #problems}.
     *
     * @throws IllegalStateException when they would not pass (the PDP served a revision it did not check)
     */
    public ToolTable of(PolicyContents contents) {
        return joined.get(contents, read -> {
            ToolTable.Join join = ToolTable.join(read, handlers, check);
            if (join instanceof ToolTable.Joined table) {
                return table.table();
            }
            throw new IllegalStateException("a revision this gateway cannot enforce is serving: "
                    + ((ToolTable.Problems) join).problems());
        });
    }
}
