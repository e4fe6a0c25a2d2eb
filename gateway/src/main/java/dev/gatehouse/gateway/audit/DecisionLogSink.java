package dev.gatehouse.gateway.audit;

/**
 * Receives every line the {@link DecisionLog} has written (one JSON record of schemas/decision-log-record.json with
 * its trailing newline), on the writer thread, in the order written. Must return at once: queue and go; the local
 * decision log stays the record that must succeed, a sink only follows it.
 */
public interface DecisionLogSink {

    /** One written line; the array is not changed afterwards and may be kept. */
    void written(byte[] line);
}
