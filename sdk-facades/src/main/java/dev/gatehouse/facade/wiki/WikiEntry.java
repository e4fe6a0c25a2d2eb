package dev.gatehouse.facade.wiki;

import java.util.Optional;

/**
 * One entry of a folder listing.
 *
 * @param path     path relative to the agent's subtree
 * @param kind     {@code page} or {@code folder}
 * @param revision the page's revision; empty for folders
 */
public record WikiEntry(String path, String kind, Optional<String> revision) {
}
