package dev.gatehouse.facade.host;

/** A message the host accepted into a thread. */
public record MessageReceipt(String threadId, String messageId) {
}
