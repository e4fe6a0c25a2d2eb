package dev.gatehouse.gateway.telemetry;

import io.micrometer.core.instrument.Meter;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The meters of one name, one per combination of its tag values, each registered on its first use and then found
 * by its tag values without building anything: a call path that counts or times reads two or three hash maps instead
 * of running a Micrometer builder and the registry's lookup on every call (issue "the gate's own cost": telemetry
 * allocates nothing per call). Every key is one of a bounded set the caller already bounds (served tool names or
 * {@code unknown}, outcomes, reason codes of the served revision), as the tags themselves must be.
 *
 * @param <M> the meter type
 */
public final class MeterTable<M extends Meter> {

    private final Function<String[], M> register;
    private final Map<String, Object> root = new ConcurrentHashMap<>();

    /**
     * @param register registers the meter of the given tag values (in the order the {@code get} methods take them);
     *                 called once per combination (the table's maps compute absent entries atomically)
     */
    public MeterTable(Function<String[], M> register) {
        this.register = register;
    }

    /** The meter of one tag value. */
    @SuppressWarnings("unchecked")
    public M get(String a) {
        M meter = (M) root.get(a);
        return meter != null ? meter : (M) leaf(root, a, new String[] {a});
    }

    /** The meter of two tag values. */
    @SuppressWarnings("unchecked")
    public M get(String a, String b) {
        Map<String, Object> level = level(root, a);
        M meter = (M) level.get(b);
        return meter != null ? meter : (M) leaf(level, b, new String[] {a, b});
    }

    /** The meter of three tag values. */
    @SuppressWarnings("unchecked")
    public M get(String a, String b, String c) {
        Map<String, Object> level = level(level(root, a), b);
        M meter = (M) level.get(c);
        return meter != null ? meter : (M) leaf(level, c, new String[] {a, b, c});
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> level(Map<String, Object> parent, String key) {
        Object level = parent.get(key);
        return (Map<String, Object>) (level != null ? level
                : parent.computeIfAbsent(key, k -> new ConcurrentHashMap<String, Object>()));
    }

    private Object leaf(Map<String, Object> level, String key, String[] values) {
        return level.computeIfAbsent(key, k -> register.apply(values));
    }
}
