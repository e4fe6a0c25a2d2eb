package dev.gatehouse.gateway.policy.embedded;

import java.util.Objects;

/**
 * A Wasm policy bundle as read from disk (the output of {@code make bundle}).
 *
 * @param wasm     the compiled policy module ({@code /policy.wasm}, Wasm ABI 1.3)
 * @param dataJson the merged policy data ({@code /data.json}), loaded once into every instance
 * @param revision lower-case hex SHA-256 of the bundle file's bytes
 */
public record WasmBundle(byte[] wasm, String dataJson, String revision) {

    public WasmBundle {
        Objects.requireNonNull(wasm, "wasm");
        Objects.requireNonNull(dataJson, "dataJson");
        Objects.requireNonNull(revision, "revision");
    }
}
