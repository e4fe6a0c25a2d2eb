package dev.gatehouse.cli;

import java.util.regex.Pattern;

/** Quoting for the commands the CLI prints, so they paste into a POSIX shell as they are. */
final class Shell {

    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./=:@%+-]+");

    private Shell() {
    }

    static String quote(String word) {
        return PLAIN.matcher(word).matches() ? word : "'" + word.replace("'", "'\\''") + "'";
    }
}
