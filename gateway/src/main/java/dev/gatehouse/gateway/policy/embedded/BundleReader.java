package dev.gatehouse.gateway.policy.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.policy.bundle.BundleArchive;
import dev.gatehouse.gateway.policy.bundle.BundleException;
import dev.gatehouse.gateway.policy.bundle.BundleVerification;
import dev.gatehouse.gateway.policy.bundle.PolicyBundle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Turns a verified OPA Wasm bundle ({@code opa build -t wasm}: {@code /policy.wasm}, {@code /data.json},
 * {@code /.manifest}, {@code /.signatures.json} and the Rego sources) into a {@link WasmBundle}. Only
 * {@code /policy.wasm} and {@code /data.json} are evaluated; their absence is an error.
 */
public final class BundleReader {

    private static final String WASM = "policy.wasm";
    private static final String DATA = "data.json";

    private BundleReader() {
    }

    /**
     * Reads, verifies and checks one bundle file.
     *
     * @throws BundleException when the file is missing, unreadable, too large, not a gzipped tar, fails
     *                         verification ({@link dev.gatehouse.gateway.policy.bundle.BundleVerifier}), or lacks
     *                         {@code /policy.wasm}, {@code /data.json} or a manifest revision
     */
    public static WasmBundle read(Path file, BundleVerification verification) throws BundleException {
        return from(PolicyBundle.verify(BundleArchive.read(file), verification));
    }

    /**
     * The Wasm parts of a verified bundle.
     *
     * @throws BundleException when {@code /policy.wasm} or {@code /data.json} is missing, or the data is not JSON
     */
    public static WasmBundle from(PolicyBundle bundle) throws BundleException {
        byte[] wasm = bundle.file(WASM).orElseThrow(() ->
                new BundleException("bundle has no /" + WASM + " (build it with make bundle)"));
        byte[] data = bundle.file(DATA).orElseThrow(() -> new BundleException("bundle has no /" + DATA));
        String dataJson = new String(data, StandardCharsets.UTF_8);
        JsonNode smoke;
        try {
            smoke = PolicyJson.MAPPER.readTree(data).path("gatehouse").path("smoke").path("cases");
        } catch (IOException e) {
            throw new BundleException("bundle /" + DATA + " is not JSON", e);
        }
        return new WasmBundle(wasm, dataJson, bundle.revision(), bundle.keyId(), bundle.signedAt(),
                smoke.isArray() ? smoke : PolicyJson.MAPPER.createArrayNode());
    }
}
