package dev.gatehouse.review;

import java.util.regex.Pattern;

/** Quoting for the commands the CLI prints, so they paste into a POSIX shell as they are. */
public final class Shell {

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./=:@%+-]+");

    private Shell() {
    }

    public static String quote(String word) {
        return PLAIN.matcher(word).matches() ? word : "'" + word.replace("'", "'\\''") + "'";
    }
}
