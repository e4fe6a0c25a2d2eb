package dev.gatehouse.facade.wiki;

import java.util.Optional;

/** Relates full wiki paths to an agent's root, segment by segment (docs/domain.md §7), never by string prefix. */
final class WikiPaths {

    private WikiPaths() {
    }

    /**
     * {@code fullPath} relative to {@code root}: {@code "."} for the root itself, empty when it is not inside.
     * E.g. root {@code agents/a1}: {@code agents/a1/x/p.md} → {@code x/p.md}; {@code agents/a10/p.md} → empty.
     */
    static Optional<String> relative(String root, String fullPath) {
        if (fullPath.equals(root)) {
            return Optional.of(".");
        }
        String boundary = root + "/";
        if (!fullPath.startsWith(boundary) || fullPath.length() == boundary.length()) {
            return Optional.empty();
        }
        String rest = fullPath.substring(boundary.length());
        for (String segment : rest.split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                return Optional.empty();
            }
        }
        return Optional.of(rest);
    }
}
