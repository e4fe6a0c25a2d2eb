package dev.gatehouse.gateway.decisions;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One page of a search, and what the search as a whole found.
 *
 * @param decisions  at most the query's limit, newest first
 * @param next       where the next page starts; empty on the last one
 * @param matched    decisions of the whole search (from its first page) that match, among those it looked at
 * @param outcomes   of those, how many per outcome
 * @param reasons    of those, how many carry each reason code, most frequent first
 * @param scanned    decisions of the range the whole search looked at, at most the scan limit
 * @param stoppedAt  set when the whole search reached the scan limit: the time of the oldest decision it looked at.
 *                   Counts then cover only the decisions from there to the end of the range, and the pages go on
 *                   from there in further bounded steps: narrow the range to see all at once
 * @param pageLimited whether this page's own look reached the scan limit before the page was full (it shows what
 *                   that look found; {@code next} continues after it)
 */
public record DecisionPage(List<DecisionSummary> decisions, Optional<DecisionQuery.Cursor> next, long matched,
        Map<Outcome, Long> outcomes, Map<String, Long> reasons, long scanned, Optional<Instant> stoppedAt,
        boolean pageLimited) {

    public DecisionPage {
        decisions = List.copyOf(decisions);
        outcomes = Map.copyOf(outcomes);
    }
}
