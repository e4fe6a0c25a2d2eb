package dev.gatehouse.gateway.support;

import dev.gatehouse.facts.CallerFacts;
import dev.gatehouse.facts.DecisionInput;
import dev.gatehouse.facts.ThreadShell;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Decision inputs as the PIP would send them, for tests that talk to a PDP directly. */
public final class Facts {

    private Facts() {
    }

    /** a1 on t1: a thread that owns a live run at full-access/default, every setting on. */
    public static CallerFacts a1() {
        return new CallerFacts("thread", "a1", Optional.of("t1"), Optional.of("pi-1"),
                Optional.of(ThreadShell.found(false, true, Optional.of("pi-1"), "full-access", "default")),
                Optional.empty(), new CallerFacts.Settings(true, true, true, true, true), Optional.empty());
    }

    /** A tools/call input of a1 with valid {@code arguments} and no target threads. */
    public static DecisionInput call(String tool, Map<String, Object> arguments) {
        return new DecisionInput(Optional.of(tool), Optional.of(arguments), List.of(), a1(), Map.of());
    }
}
