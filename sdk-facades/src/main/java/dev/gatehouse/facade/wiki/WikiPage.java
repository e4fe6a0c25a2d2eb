package dev.gatehouse.facade.wiki;

/**
 * A page read whole.
 *
 * @param path     path relative to the agent's subtree
 * @param content  full UTF-8 content
 * @param revision current revision, {@code rN}
 */
public record WikiPage(String path, String content, String revision) {
}
