package dev.gatehouse.facade.project;

import java.util.Optional;

/**
 * A submitted operation.
 *
 * @param operationId the operation
 * @param status      {@code pending}, {@code committed} or {@code rejected}
 * @param runId       the run it belongs to
 * @param reason      why it was rejected, when it was
 */
public record Operation(String operationId, String status, String runId, Optional<String> reason) {
}
