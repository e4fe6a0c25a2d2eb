package dev.gatehouse.facade.host;

/**
 * One message of a thread.
 *
 * @param role   {@code user}, {@code assistant} or {@code agent}
 * @param text   message text
 * @param sentAt ISO-8601 instant
 */
public record ThreadMessage(String role, String text, String sentAt) {
}
