package dev.gatehouse.facade.wiki;

/**
 * One search hit.
 *
 * @param path    path relative to the agent's subtree
 * @param snippet the matching line, trimmed
 */
public record WikiHit(String path, String snippet) {
}
