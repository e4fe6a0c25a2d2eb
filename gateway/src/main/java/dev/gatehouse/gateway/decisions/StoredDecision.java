package dev.gatehouse.gateway.decisions;

import java.util.Objects;
import java.util.Optional;

/**
 * One decision with its record as the decision log wrote it.
 *
 * @param summary       what the index lists of it
 * @param record        the log line (schemas/decision-log-record.json) without its newline, stand-ins as logged
 * @param values        the values-file lines its stand-ins name, as a JSON array, when it has any and they were kept
 * @param valuesMissing whether it names values the index did not keep (more than {@code max-values-bytes}, or not
 *                      found in its log file's values file)
 */
public record StoredDecision(DecisionSummary summary, String record, Optional<String> values,
        boolean valuesMissing) {

    public StoredDecision {
        Objects.requireNonNull(summary, "summary");
        Objects.requireNonNull(record, "record");
        Objects.requireNonNull(values, "values");
    }
}
