package dev.gatehouse.facade.wiki;

/**
 * The result of a move.
 *
 * @param from     the page's former path, relative to the agent's subtree
 * @param to       the page's new path, relative to the agent's subtree
 * @param revision the page's revision at its new path
 */
public record WikiMove(String from, String to, String revision) {
}
