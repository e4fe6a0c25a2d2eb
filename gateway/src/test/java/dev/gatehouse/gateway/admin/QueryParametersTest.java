package dev.gatehouse.gateway.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class QueryParametersTest {

    /**
     * Without a value is empty or every character invisible (a new user's trial: a no-break space and a zero-width
     * space were read as a filter matching nothing, while U+3000 and a tab were refused as given without a value).
     */
    @Test
    void aValueOfInvisibleCharactersIsGivenWithoutAValue() {
        for (String blank : List.of("", " ", "\t", "\n", "\r\n", "\u000B", "\u001F", "\u0085", "\u00A0", "\u200B",
                "\u3000", "\u2028", "\u2029", "\u2007", "\u202F", "\u1680", "\uFEFF", "\u200D", "\u2060", "\u00AD",
                "\u202E", "\u2066", "\u061C", "\u115F", "\u3164", "\uFE0F", new String(Character.toChars(0xE0001)),
                new String(Character.toChars(0xE007F)), "\u0000", "\u007F", "\u00A0\u200B \u3000")) {
            List<FieldProblem> problems = new ArrayList<>();
            assertEquals(Optional.empty(), QueryParameters.given("agent", blank, problems), codes(blank));
            assertEquals(List.of(FieldProblem.invalid("agent", QueryParameters.EMPTY)), problems, codes(blank));
            assertTrue(QueryParameters.blank(blank), codes(blank));
        }
    }

    @Test
    void aValueWithAnythingToReadIsAValue() {
        for (String value : List.of("a", "\u00A0a\u00A0", "\u200Ba", "\u202Eabc", "\u0301", "\u00B7", "\u30FB", "_",
                "0", new String(Character.toChars(0x1F600)), "\uFFFF", "\uE000")) {
            List<FieldProblem> problems = new ArrayList<>();
            assertTrue(QueryParameters.given("agent", value, problems).isPresent(), codes(value));
            assertEquals(List.of(), problems, codes(value));
            assertFalse(QueryParameters.blank(value), codes(value));
        }
        List<FieldProblem> problems = new ArrayList<>();
        assertEquals(Optional.empty(), QueryParameters.given("agent", null, problems), "absent: no filter");
        assertEquals(List.of(), problems);
    }

    private static String codes(String text) {
        return text.codePoints().mapToObj(c -> String.format("U+%04X", c)).toList().toString();
    }
}
