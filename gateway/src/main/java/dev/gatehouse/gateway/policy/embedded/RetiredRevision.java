package dev.gatehouse.gateway.policy.embedded;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gatehouse.gateway.policy.Entrypoint;
import dev.gatehouse.gateway.policy.ResultSet;
import dev.gatehouse.gateway.policy.api.PolicyContents;
import dev.gatehouse.gateway.policy.api.PolicyFault;
import dev.gatehouse.gateway.policy.api.PolicyOutcome;
import java.time.Instant;
import java.util.Optional;

/**
 * A revision that served before the serving one, kept read-only for replay and the matrix diff: the bundle exactly as
 * it was verified when it was activated, its contents, and one policy instance built the first time it is asked
 * (≈150–250 ms) and used by one evaluation at a time. It decides nothing for calls.
 */
final class RetiredRevision extends WasmRevision {

    /** Guarded by this. */
    private WasmInstance instance;

    RetiredRevision(WasmBundle bundle, PolicyContents contents, Instant activatedAt, String source,
            RegoBundles.Holder rego) {
        super(bundle, contents, activatedAt, source, rego);
    }

    @Override
    public synchronized PolicyOutcome<ResultSet> evaluate(Entrypoint entrypoint, ObjectNode input) {
        // Written before the instance is touched: an input Jackson cannot write says nothing about the instance.
        Optional<String> inputJson = EmbeddedRevision.written(input);
        if (inputJson.isEmpty()) {
            return EmbeddedRevision.unwritable();
        }
        WasmBundle bundle = bundle();
        if (instance == null) {
            try {
                instance = new WasmInstance(bundle);
            } catch (Throwable e) { // the runtime fails with Errors too
                return new PolicyOutcome.Failed<>(new PolicyFault(PolicyFault.EVALUATION_ERROR,
                        "revision " + bundle.revision() + " cannot be instantiated: " + EmbeddedRevision.describe(e)));
            }
        }
        PolicyOutcome<ResultSet> outcome = EmbeddedRevision.evaluateOn(instance, bundle, entrypoint,
                inputJson.get());
        if (outcome instanceof PolicyOutcome.Failed<ResultSet> failed
                && failed.fault().code().equals(PolicyFault.EVALUATION_ERROR)) {
            instance = null; // its memory may be inconsistent: the next evaluation builds a fresh one
        }
        return outcome;
    }

    /** The Rego bundle found while it served; the file is not looked at again (it holds a newer revision now). */
    @Override
    public Optional<byte[]> regoBundle() {
        return rego().get(false);
    }
}
