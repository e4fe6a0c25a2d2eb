package dev.gatehouse.gateway.audit;

import dev.gatehouse.gateway.decisions.DecisionRecords;
import java.util.List;

/**
 * One record ready to append: its line (UTF-8, with the newline, at most {@code max-record-bytes}), the values its
 * stand-ins replaced, which go to the values file first (those already there are not written again), and what the
 * decision index lists of it, read from the tree the line was written from ({@code null} when only the line can
 * tell: {@link DecisionRecords#listing(com.fasterxml.jackson.databind.JsonNode, java.util.UUID, java.time.Instant)}).
 */
record RecordLine(byte[] line, List<StoredValue> values, DecisionRecords.Listing listing) {

    RecordLine {
        values = List.copyOf(values);
    }
}
