package dev.gatehouse.gateway.policy.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A verified Wasm policy bundle (the output of {@code make bundle}), ready to build instances from.
 *
 * @param wasm       the compiled policy module ({@code /policy.wasm}, Wasm ABI 1.3)
 * @param dataJson   the merged policy data ({@code /data.json}), loaded once into every instance
 * @param revision   the manifest revision ({@code opa build --revision})
 * @param keyId      the id of the key that verified the signature; empty for an allowed unsigned bundle
 * @param signedAt   the signature's {@code iat}, when present
 * @param smokeCases the golden cases shipped in the bundle's data at {@code gatehouse.smoke.cases} (an array of
 *                   {@code {name, input, expected}}; empty array when the bundle ships none)
 */
public record WasmBundle(byte[] wasm, String dataJson, String revision, Optional<String> keyId,
        Optional<Instant> signedAt, JsonNode smokeCases) {

    public WasmBundle {
        Objects.requireNonNull(wasm, "wasm");
        Objects.requireNonNull(dataJson, "dataJson");
        Objects.requireNonNull(revision, "revision");
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(signedAt, "signedAt");
        Objects.requireNonNull(smokeCases, "smokeCases");
    }
}
