package dev.gatehouse.facade.host;

/**
 * The answer to an interrupt.
 *
 * @param threadId    the thread
 * @param interrupted true when a run was active and got interrupted; false when nothing was running
 */
public record InterruptReceipt(String threadId, boolean interrupted) {
}
