package dev.gatehouse.facade.project;

import java.util.Map;

/**
 * A work result to submit, based on the given revisions.
 *
 * @param result the result object as JSON values (business data)
 */
public record WorkSubmission(String runId, String runRevision, String assignmentRevision, Map<String, Object> result) {
}
