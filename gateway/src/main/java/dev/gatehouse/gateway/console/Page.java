package dev.gatehouse.gateway.console;

import java.util.Optional;

/**
 * What every console page's layout needs (src/main/jte/console/layout.jte).
 *
 * @param title    the page's title, also its {@code h1}
 * @param nav      which navigation entry is current ({@code overview}, {@code sessions}, {@code agents},
 *                 {@code service-clients}, {@code decisions}, {@code policy}, {@code notices},
 *                 {@code audit}), or empty outside the signed-in pages
 * @param operator the signed-in operator's display name
 * @param csrf     the session's synchronizer token, put into every form (sign-out included)
 * @param notice   a one-line confirmation of the last change, if any
 */
public record Page(String title, String nav, Optional<String> operator, Optional<String> csrf,
        Optional<String> notice) {

    /** A page outside a session (sign-in, refusals). */
    public static Page anonymous(String title) {
        return new Page(title, "", Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** The same page with a confirmation line. */
    public Page withNotice(Optional<String> notice) {
        return new Page(title, nav, operator, csrf, notice);
    }
}
