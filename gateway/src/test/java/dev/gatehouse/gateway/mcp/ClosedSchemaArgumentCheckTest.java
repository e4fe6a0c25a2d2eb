package dev.gatehouse.gateway.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.facts.ClosedSchemaArgumentCheck;
import dev.gatehouse.facts.ArgumentCheck;
import dev.gatehouse.facts.DecisionInput.ArgumentError;
import dev.gatehouse.gateway.support.PolicySources;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Public-failures row 15: closed schemas are enforced, and violations become facts without argument values. */
class ClosedSchemaArgumentCheckTest {

    private final ArgumentCheck.Validator wikiRead = new ClosedSchemaArgumentCheck().compile(
            PolicySources.schema("wiki_read"));

    @Test
    void validArgumentsHaveNoErrors() {
        assertEquals(List.of(), wikiRead.check(Map.of("path", "page.md")));
    }

    @Test
    void unknownAndIdentityKeysAreNamedWithoutTheirValues() {
        List<ArgumentError> errors = wikiRead.check(Map.of("path", "page.md", "agentId", "SECRET-a2"));
        assertEquals(1, errors.size());
        ArgumentError error = errors.get(0);
        assertEquals("additionalProperties", error.keyword());
        assertEquals(Optional.of("agentId"), error.property());
        assertEquals("", error.instanceLocation());
        assertFalse(error.message().contains("SECRET"));
    }

    @Test
    void wrongTypesArraysAndMissingMembersAreErrors() {
        assertTrue(wikiRead.check(Map.of("path", List.of("page.md", "../a2/secret.md"))).stream()
                .anyMatch(e -> e.keyword().equals("type") && e.instanceLocation().equals("/path")));
        assertTrue(wikiRead.check(Map.of("path", Map.of("$ref", "x"))).stream()
                .anyMatch(e -> e.keyword().equals("type")));
        assertTrue(wikiRead.check(Map.of()).stream()
                .anyMatch(e -> e.keyword().equals("required") && e.property().equals(Optional.of("path"))));
        assertTrue(wikiRead.check("page.md").stream().anyMatch(e -> e.keyword().equals("type")));
        assertTrue(wikiRead.check(List.of("page.md")).stream().anyMatch(e -> e.keyword().equals("type")));
    }
}
