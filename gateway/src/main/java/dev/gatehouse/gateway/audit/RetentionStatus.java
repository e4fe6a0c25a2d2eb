package dev.gatehouse.gateway.audit;

/**
 * What {@code /health} reports of the decision log's space ({@link LogRetention}).
 *
 * @param degraded      whether {@code maxFiles} or more rotated files are kept that are neither shipped nor past
 *                      their retention age: the next rotation deletes records that are neither (or one already did)
 * @param keptFiles     rotated files kept
 * @param mustKeepFiles of them, those neither shipped nor past their retention age
 * @param maxFiles      the budget, {@code gatehouse.audit.max-files}
 * @param evicted       records deleted by the budget since the gateway started
 */
public record RetentionStatus(boolean degraded, int keptFiles, int mustKeepFiles, int maxFiles, long evicted) {
}
