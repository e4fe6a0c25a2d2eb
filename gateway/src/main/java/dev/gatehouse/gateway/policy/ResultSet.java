package dev.gatehouse.gateway.policy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * What an engine answered for one evaluation, before it is understood: the result set in the Wasm ABI shape
 * ({@code [{"result": value}]} when defined, {@code []} when undefined; the remote engine converts OPA's REST
 * answer into the same shape) and the revision of the bundle that evaluated it.
 *
 * @param results  the raw result set; {@link DecisionParser} decides whether it is usable
 * @param revision the bundle revision, never null
 */
public record ResultSet(JsonNode results, String revision) {

    public ResultSet {
        Objects.requireNonNull(results, "results");
        Objects.requireNonNull(revision, "revision");
    }
}
