package dev.gatehouse.gateway.policy.embedded;

import dev.gatehouse.gateway.policy.EvaluatingPolicy;
import dev.gatehouse.gateway.policy.api.KeptRevision;
import dev.gatehouse.gateway.policy.api.PolicyContents;
import java.time.Instant;
import java.util.Optional;

/**
 * What a Wasm revision keeps for replay and the matrix diff, the same while it serves ({@link EmbeddedRevision}) and
 * after ({@link RetiredRevision}): the bundle exactly as it was verified when it was activated, where it came from,
 * and the holder of its Rego bundle. The subclasses differ in how they evaluate and whether they still look for the
 * Rego bundle.
 */
abstract class WasmRevision extends EvaluatingPolicy implements KeptRevision {

    private final WasmBundle bundle;
    private final String source;
    private final RegoBundles.Holder rego;

    /**
     * @param source where the bundle came from ({@link KeptRevision#source()})
     * @param rego   its Rego bundle
     */
    WasmRevision(WasmBundle bundle, PolicyContents contents, Instant activatedAt, String source,
            RegoBundles.Holder rego) {
        super(bundle.revision(), bundle.keyId(), activatedAt, contents);
        this.bundle = bundle;
        this.source = source;
        this.rego = rego;
    }

    @Override
    public final Optional<Instant> signedAt() {
        return bundle.signedAt();
    }

    @Override
    public final String source() {
        return source;
    }

    /** The bundle this revision evaluates. */
    final WasmBundle bundle() {
        return bundle;
    }

    final RegoBundles.Holder rego() {
        return rego;
    }
}
