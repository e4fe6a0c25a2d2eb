package dev.gatehouse.gateway.policy.embedded;

import com.styra.opa.wasm.OpaPolicy;
import dev.gatehouse.gateway.policy.Entrypoint;
import java.util.EnumMap;
import java.util.Map;

/**
 * One compiled policy instance with the bundle's data loaded once (loading data is the
 * expensive step, so it is never cleared or reloaded). Not thread-safe: exactly one thread may use an instance at
 * a time, which {@link WasmPool} guarantees.
 */
final class WasmInstance {

    private final OpaPolicy policy;
    private final Map<Entrypoint, Integer> entrypointIds = new EnumMap<>(Entrypoint.class);

    /**
     * Compiles the module (≈150–250 ms, ≈1.2 s for the first in a cold JVM) and loads the data.
     *
     * @throws IllegalArgumentException when the module is not Wasm ABI 1.3 or lacks one of the {@link Entrypoint}s
     * @throws RuntimeException         for any other failure of the Wasm runtime while compiling or loading data
     */
    WasmInstance(WasmBundle bundle) {
        this.policy = OpaPolicy.builder().withPolicy(bundle.wasm()).build();
        Map<String, Integer> exported = policy.entrypoints();
        for (Entrypoint entrypoint : Entrypoint.values()) {
            Integer id = exported.get(entrypoint.path());
            if (id == null) {
                throw new IllegalArgumentException("the bundle does not export entrypoint " + entrypoint.path()
                        + "; it exports " + exported.keySet());
            }
            entrypointIds.put(entrypoint, id);
        }
        policy.data(bundle.dataJson());
    }

    /**
     * Evaluates one entrypoint.
     *
     * @param inputJson well-formed decision-input JSON (the Wasm JSON parser treats malformed input as absent)
     * @return the raw result set, {@code [{"result": …}]} or {@code []}
     */
    String evaluate(Entrypoint entrypoint, String inputJson) {
        return policy.entrypoint(entrypointIds.get(entrypoint)).evaluate(inputJson);
    }
}
