package dev.gatehouse.gateway.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class VisibleTest {

    @Test
    void everyFormatCharacterIsWrittenAsItsEscapeAndTheTextAroundItIsKept() {
        int checked = 0;
        for (int c = 0; c <= Character.MAX_CODE_POINT; c++) {
            if (Character.getType(c) == Character.FORMAT) {
                String name = "a" + Character.toString(c) + "txet.exe";
                assertEquals("a" + String.format("\\u%04X", c) + "txet.exe", Visible.text(name),
                        Integer.toHexString(c));
                checked++;
            }
        }
        assertTrue(checked > 100, "the Cf category: " + checked);
    }

    @Test
    void otherTextIsUnchangedAndAbsentIsEmpty() {
        // Cyrillic, Arabic letters (right-to-left but visible), a combining accent, an emoji, an escape already as text
        for (String text : new String[] {"оа-агент", "وكيل", "e\u0301", "\uD83D\uDE00", "a\\u202Eb", "<b>"}) {
            assertEquals(text, Visible.text(text));
        }
        assertEquals("", Visible.text(null));
    }

    @Test
    void aNameIsItsTextAndTheEmptyNameIsSaidToBeOne() {
        assertEquals("(empty name)", Visible.name(""));
        assertEquals("a\\u202Eb", Visible.name("a\u202Eb"));
        assertEquals(" ", Visible.name(" "));
        assertEquals("agent", Visible.name("agent"));
    }
}
