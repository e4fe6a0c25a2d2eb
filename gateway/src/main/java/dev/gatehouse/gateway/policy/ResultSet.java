package dev.gatehouse.gateway.policy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import java.util.Optional;

/**
 * What an engine answered for one evaluation, before it is understood: the result set in the Wasm ABI shape
 * ({@code [{"result": value}]} when defined, {@code []} when undefined; the remote engine converts OPA's REST
 * answer into the same shape) and the revision of the bundle that evaluated it.
 *
 * @param results  the raw result set; {@link DecisionParser} decides whether it is usable
 * @param revision the bundle's manifest revision, never null
 * @param keyId    the id of the key that verified the bundle, when the engine knows it (the embedded one does)
 */
public record ResultSet(JsonNode results, String revision, Optional<String> keyId) {

    public ResultSet {
        Objects.requireNonNull(results, "results");
        Objects.requireNonNull(revision, "revision");
        Objects.requireNonNull(keyId, "keyId");
    }

    /** A result set from an engine that does not know the verifying key (the remote one). */
    public ResultSet(JsonNode results, String revision) {
        this(results, revision, Optional.empty());
    }
}
