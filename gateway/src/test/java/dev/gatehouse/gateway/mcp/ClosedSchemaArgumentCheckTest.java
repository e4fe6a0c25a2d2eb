package dev.gatehouse.gateway.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.gateway.gate.ToolSchema;
import dev.gatehouse.gateway.policy.api.DecisionInput.ArgumentError;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Public-failures row 15: closed schemas are enforced, and violations become facts without argument values. */
class ClosedSchemaArgumentCheckTest {

    private final ClosedSchemaArgumentCheck check = new ClosedSchemaArgumentCheck();
    private final ToolSchema wikiRead = ToolRegistryFactory.readSchema("wiki_read").orElseThrow();

    @Test
    void validArgumentsHaveNoErrors() {
        assertEquals(List.of(), check.check(wikiRead, Map.of("path", "page.md")));
    }

    @Test
    void unknownAndIdentityKeysAreNamedWithoutTheirValues() {
        List<ArgumentError> errors = check.check(wikiRead, Map.of("path", "page.md", "agentId", "SECRET-a2"));
        assertEquals(1, errors.size());
        ArgumentError error = errors.get(0);
        assertEquals("additionalProperties", error.keyword());
        assertEquals(Optional.of("agentId"), error.property());
        assertEquals("", error.instanceLocation());
        assertFalse(error.message().contains("SECRET"));
    }

    @Test
    void wrongTypesArraysAndMissingMembersAreErrors() {
        assertTrue(check.check(wikiRead, Map.of("path", List.of("page.md", "../a2/secret.md"))).stream()
                .anyMatch(e -> e.keyword().equals("type") && e.instanceLocation().equals("/path")));
        assertTrue(check.check(wikiRead, Map.of("path", Map.of("$ref", "x"))).stream()
                .anyMatch(e -> e.keyword().equals("type")));
        assertTrue(check.check(wikiRead, Map.of()).stream()
                .anyMatch(e -> e.keyword().equals("required") && e.property().equals(Optional.of("path"))));
        assertTrue(check.check(wikiRead, "page.md").stream().anyMatch(e -> e.keyword().equals("type")));
        assertTrue(check.check(wikiRead, List.of("page.md")).stream().anyMatch(e -> e.keyword().equals("type")));
    }
}
