package dev.gatehouse.gateway.decisions;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The search index of every replica's decisions (docs/design.md, "Finding decisions"), in the shared PostgreSQL: one
 * row per decision-log record, with the record as written and the values it stands in for. The decision log stays
 * the record of truth: the index is written from it, off the request path, and may lag behind it or lose its oldest
 * entries to retention. Every method throws {@code StoreUnavailableException} when the store does not answer.
 */
public interface DecisionIndex {

    /** Adds decisions; one already indexed (same decision id) is left as it is. One statement. */
    void add(List<StoredDecision> decisions);

    /**
     * One page of {@code query}. Each look at the range is bounded: at most {@code scanLimit} decisions of the range
     * (of the agent, when the query names one), newest first, are read before the other filters apply.
     */
    DecisionPage search(DecisionQuery query, int scanLimit);

    /** The records of one page of {@code query} (same bounds as {@link #search}), for export. */
    RecordPage records(DecisionQuery query, int scanLimit);

    /** The decision with this id, from any replica. */
    Optional<StoredDecision> find(UUID decisionId);

    /**
     * Deletes decisions older than {@code before}, then the earliest indexed beyond the newest {@code maxRecords},
     * in bounded steps.
     *
     * @return how many were deleted
     */
    long sweep(Instant before, long maxRecords);

    /**
     * Records of one page, newest first.
     *
     * @param records the log lines, without newlines
     * @param next    where the next page starts; empty after the last
     */
    record RecordPage(List<String> records, Optional<DecisionQuery.Cursor> next) {

        public RecordPage {
            records = List.copyOf(records);
        }
    }
}
