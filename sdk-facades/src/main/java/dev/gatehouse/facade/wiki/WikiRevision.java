package dev.gatehouse.facade.wiki;

/**
 * The result of a write or delete.
 *
 * @param path     path relative to the agent's subtree
 * @param revision the revision written, or the revision that was deleted
 */
public record WikiRevision(String path, String revision) {
}
