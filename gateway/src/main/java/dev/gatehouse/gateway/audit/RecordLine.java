package dev.gatehouse.gateway.audit;

import java.util.List;

/**
 * One record ready to append: its line (UTF-8, with the newline, at most {@code max-record-bytes}) and the values
 * its stand-ins replaced, which go to the values file first (those already there are not written again).
 */
record RecordLine(byte[] line, List<StoredValue> values) {

    RecordLine {
        values = List.copyOf(values);
    }
}
