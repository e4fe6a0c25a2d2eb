package dev.gatehouse.gateway.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gatehouse.facts.Modes;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code T3-Mode-Limit}: only the syntax is the PEP's (one value, {@code <word>/<word>}, each an RFC 9110 token of at
 * most 64 characters); which words are modes is the policy's (mode_limit_unknown), so they pass as received.
 */
class ModeLimitHeaderTest {

    @Test
    void parsesOneRuntimeInteractionPair() throws ModeLimitHeader.Malformed {
        assertEquals(Optional.of(new Modes("auto", "plan")), ModeLimitHeader.parse(List.of("auto/plan")));
        assertEquals(Optional.of(new Modes("auto", "plan")), ModeLimitHeader.parse(List.of(" \tauto/plan\t ")),
                "optional white space around the value is not part of it");
        assertEquals(Optional.empty(), ModeLimitHeader.parse(List.of()));
    }

    /** Names the policy does not know are well-formed: they reach the policy exactly as sent. */
    @Test
    void unknownNamesArePassedOnAsReceived() throws ModeLimitHeader.Malformed {
        for (String value : List.of("AUTO/plan", "inherit/default", "read-only/default", "turbo/chat",
                "plan/auto", "x".repeat(64) + "/!#$%&'*+-.^_`|~")) {
            String[] parts = value.split("/");
            assertEquals(Optional.of(new Modes(parts[0], parts[1])), ModeLimitHeader.parse(List.of(value)), value);
        }
    }

    @Test
    void anythingElseIsMalformed() {
        for (List<String> values : List.of(List.of("auto"), List.of("auto/plan/x"), List.of("/"), List.of(""),
                List.of("auto/"), List.of("/plan"), List.of("auto /plan"), List.of("auto/ plan"),
                List.of("full access/plan"), List.of("auto\\plan"), List.of("auto,plan"), List.of("aut\u00f6/plan"),
                List.of("auto/plan\u200b"), List.of("auto/\u0000"), List.of("x".repeat(65) + "/plan"),
                List.of("auto/plan", "auto/plan"))) {
            assertThrows(ModeLimitHeader.Malformed.class, () -> ModeLimitHeader.parse(values), values.toString());
        }
    }
}
