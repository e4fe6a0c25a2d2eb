package dev.gatehouse.gateway.policy.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.Optional;

/**
 * A policy revision this gateway activated and still keeps ({@link RevisionHistory}): the serving one or one served
 * before it, read-only. Its bundle is the one verified when it was served (kept as verified, never read again from
 * where it came), so a replay or a matrix of it is the policy that decided then.
 */
public interface KeptRevision {

    /** The manifest revision. */
    String revision();

    /** The id of the key that verified it; empty when unsigned or verified elsewhere. */
    Optional<String> keyId();

    /** When this gateway activated it. */
    Instant activatedAt();

    /** The signature's {@code iat}, when it has one. */
    Optional<Instant> signedAt();

    /** Where it came from: {@code file <path>}, {@code bundle service <url>}, or {@code remote OPA <url>}. */
    String source();

    /** Its access table, tool schemas and reason catalogue. */
    PolicyContents contents();

    /**
     * Evaluates one entry point of this revision on an input as given (a logged record's input, a matrix cell).
     *
     * @param path the entry point's data path, e.g. {@code gatehouse/authz/decision}
     * @return the value the policy gives (a missing node when it gives none), or the fault that kept the engine from
     *         evaluating (an unknown path is {@link PolicyFault#EVALUATION_ERROR})
     */
    PolicyOutcome<JsonNode> evaluate(String path, ObjectNode input);

    /**
     * The Rego bundle of this revision ({@code make bundle} builds it beside the Wasm one, from the same sources and
     * signed with the same key), for {@code opa eval --explain}: verified with the engine's key and carrying this
     * revision in its manifest. Empty when the gateway was given none or found none of this revision.
     */
    Optional<byte[]> regoBundle();
}
