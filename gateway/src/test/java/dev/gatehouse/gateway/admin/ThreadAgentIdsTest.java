package dev.gatehouse.gateway.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A thread agent's id shows an operator every character it holds, in its normal form (a new user's trial found
 * {@code a1\u200b}, {@code a\uff11}, {@code a b} and an id behind U+202E taken beside {@code a1}). The variants put each
 * kind of character at the start, in the middle and at the end of a plain id.
 */
class ThreadAgentIdsTest {

    /** Characters that show nothing, and compatibility forms that show as other characters. */
    private static final List<String> REFUSED = List.of(" ", "\u00a0", "\u3000", "\u2028", "\u0007", "\u007f",
            "\u200b", "\ufeff", "\u2060", "\u202e", "\u2066", "\u061c", "\u3164", "\ufe0f", "\ue000", "\udc00",
            "\uff11", "\uff41", "\ufb01", "\u2460", "\u00b2", "e\u0301");

    @Test
    void anIdWithACharacterThatShowsNothingOrAsAnotherIsRefusedNamingTheField() {
        List<String> taken = new ArrayList<>();
        for (String character : REFUSED) {
            for (String id : List.of(character + "a1", "a" + character + "1", "a1" + character)) {
                Optional<FieldProblem> problem = ThreadAgentIds.problem("logicalAgentId", id);
                if (problem.isEmpty()) {
                    taken.add(String.format("U+%04X in %s", (int) character.charAt(0), id.replace(character, "_")));
                } else {
                    assertEquals("logicalAgentId", problem.get().field());
                    assertTrue(!problem.get().message().contains(id), problem.get().message());
                }
            }
        }
        assertEquals(List.of(), taken);
    }

    @Test
    void plainIdsInAnyScriptAreTaken() {
        for (String id : List.of("a1", "codex-7", "agent_2.b", "caf\u00e9", "\u4ee3\u7406\u4eba", "\u0430\u0433\u0435\u043d\u0442",
                "x".repeat(ThreadAgentIds.MAX_LENGTH))) {
            assertEquals(Optional.empty(), ThreadAgentIds.problem("agentId", id), id);
        }
        assertTrue(ThreadAgentIds.problem("agentId", "x".repeat(ThreadAgentIds.MAX_LENGTH + 1)).isPresent());
        assertTrue(ThreadAgentIds.problem("agentId", "oa-x").isPresent(), "the outside-agent namespace");
        assertTrue(ThreadAgentIds.problem("agentId", "\uff4f\uff41-x").isPresent(), "fullwidth oa-");
    }

    /**
     * An id is one path segment (a new user's trial stored {@code ..}, {@code a/b} and {@code a1/../../sessions}
     * through the admin API, which no console page could open): a separator anywhere, and the dot segments, are
     * refused; dots inside a name are not.
     */
    @Test
    void anIdIsOnePathSegment() {
        for (String id : List.of(".", "..", "/", "a/b", "/a1", "a1/", "a1/../../sessions", "../sessions", "a\\b",
                "\\a1", "a1\\")) {
            Optional<FieldProblem> problem = ThreadAgentIds.problem("agentId", id);
            assertTrue(problem.isPresent(), id);
            assertTrue(problem.get().message().contains("one path segment"), id + " " + problem.get().message());
        }
        for (String id : List.of("a.b", "...", ".a1", "a1.", "a..b")) {
            assertEquals(Optional.empty(), ThreadAgentIds.problem("agentId", id), id);
        }
    }
}
