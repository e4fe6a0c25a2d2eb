package dev.gatehouse.gateway.console;

/**
 * Text from agents and tokens as an operator must read it. Every invisible format character (Unicode category Cf:
 * bidirectional overrides and isolates such as U+202E, zero-width spaces and joiners, U+FEFF) is written as the text
 * {@code \\uXXXX}, so a name cannot reorder or hide what the console shows (README, operator console). Markup is the
 * template's escaping, not this.
 */
public final class Visible {

    /** How {@link #name} shows the empty name. */
    public static final String EMPTY_NAME = "(empty name)";

    private Visible() {
    }

    /**
     * The text with each format character replaced by {@code \\u} and its code point in upper-case hex (at least 4
     * digits); every other character unchanged. {@code null} gives the empty string (a value not given).
     */
    public static String text(String value) {
        if (value == null) {
            return "";
        }
        StringBuilder shown = new StringBuilder(value.length());
        value.codePoints().forEach(c -> {
            if (Character.getType(c) == Character.FORMAT) {
                shown.append(String.format("\\u%04X", c));
            } else {
                shown.appendCodePoint(c);
            }
        });
        return shown.toString();
    }

    /**
     * A parameter's or field's name as a problem names it: its {@link #text}, or {@value #EMPTY_NAME} for the empty
     * name ({@code ?=x}), which would otherwise read as no name at all ("The parameter : …").
     */
    public static String name(String name) {
        return name.isEmpty() ? EMPTY_NAME : text(name);
    }
}
