package dev.gatehouse.gateway.admin;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.lang.UCharacterCategory;
import com.ibm.icu.lang.UProperty;
import java.util.Set;

/**
 * The admin API's one rule for characters that show an operator nothing: what a registration's issuer and a thread
 * agent's id may not hold ({@link RegistrationIssuers}, {@link ThreadAgentIds}) and what a search parameter may not be
 * made of alone to count as given with a value ({@link QueryParameters#given}).
 */
final class InvisibleCharacters {

    /** The general categories with nothing to read: controls (Cc), format (Cf) and separators (Zs, Zl, Zp). */
    private static final Set<Integer> INVISIBLE = Set.of((int) UCharacterCategory.CONTROL,
            (int) UCharacterCategory.FORMAT, (int) UCharacterCategory.SPACE_SEPARATOR,
            (int) UCharacterCategory.LINE_SEPARATOR, (int) UCharacterCategory.PARAGRAPH_SEPARATOR);

    /** The general categories with nothing printable to show: surrogates, private use, unassigned (noncharacters). */
    private static final Set<Integer> UNPRINTABLE = Set.of((int) UCharacterCategory.SURROGATE,
            (int) UCharacterCategory.PRIVATE_USE, (int) UCharacterCategory.UNASSIGNED);

    private InvisibleCharacters() {
    }

    /**
     * Whether {@code codePoint} shows nothing: white space or another separator (U+0020, U+00A0, U+3000, U+2028, …), a
     * control, a format character (U+200B, U+FEFF, tags, …), a bidirectional control (U+202E, U+2066–U+2069) or
     * another default-ignorable code point (U+115F, U+3164, variation selectors).
     */
    static boolean invisible(int codePoint) {
        return INVISIBLE.contains(UCharacter.getType(codePoint))
                || UCharacter.hasBinaryProperty(codePoint, UProperty.BIDI_CONTROL)
                || UCharacter.hasBinaryProperty(codePoint, UProperty.DEFAULT_IGNORABLE_CODE_POINT);
    }

    /** Whether {@code codePoint} is {@link #invisible} or has nothing to print: surrogate, private use, unassigned. */
    static boolean notPrintable(int codePoint) {
        return invisible(codePoint) || UNPRINTABLE.contains(UCharacter.getType(codePoint));
    }
}
