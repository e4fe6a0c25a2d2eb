package dev.gatehouse.gateway.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gatehouse.gateway.policy.api.Modes;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ModeLimitHeaderTest {

    @Test
    void parsesOneRuntimeInteractionPair() throws ModeLimitHeader.Malformed {
        assertEquals(Optional.of(new Modes("auto", "plan")), ModeLimitHeader.parse(List.of("auto/plan")));
        assertEquals(Optional.empty(), ModeLimitHeader.parse(List.of()));
    }

    @Test
    void anythingElseIsMalformed() {
        for (List<String> values : List.of(List.of("auto"), List.of("auto/plan/x"), List.of("AUTO/plan"),
                List.of("inherit/default"), List.of("read-only/default"), List.of("/"), List.of(""),
                List.of("auto/plan", "auto/plan"))) {
            assertThrows(ModeLimitHeader.Malformed.class, () -> ModeLimitHeader.parse(values), values.toString());
        }
    }
}
