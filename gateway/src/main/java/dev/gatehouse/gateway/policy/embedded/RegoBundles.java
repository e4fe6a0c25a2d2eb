package dev.gatehouse.gateway.policy.embedded;

import dev.gatehouse.gateway.policy.bundle.BundleArchive;
import dev.gatehouse.gateway.policy.bundle.BundleException;
import dev.gatehouse.gateway.policy.bundle.PolicyBundle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the Rego bundle of a revision ({@link EmbeddedPdpConfiguration#regoBundleFile()}): the file's bytes when they
 * verify with the engine's key exactly as the Wasm bundle must ({@link PolicyBundle#verify}) and its manifest names
 * that revision. {@code opa eval} runs Rego, not Wasm, and the Rego kept inside a Wasm bundle lacks the entry points,
 * so explain needs this second bundle of the same signed sources.
 */
final class RegoBundles {

    private static final Logger LOG = LoggerFactory.getLogger(RegoBundles.class);

    private final EmbeddedPdpConfiguration configuration;

    RegoBundles(EmbeddedPdpConfiguration configuration) {
        this.configuration = configuration;
    }

    /** The verified bytes of the Rego bundle of {@code revision}; empty when the file holds none. */
    Optional<byte[]> find(String revision) {
        Path file = configuration.regoBundleFile();
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            if (Files.size(file) > BundleArchive.MAX_FILE_BYTES) {
                return Optional.empty();
            }
            byte[] bytes = Files.readAllBytes(file);
            PolicyBundle bundle = PolicyBundle.verify(BundleArchive.parse(bytes, file.toString()),
                    configuration.verification());
            if (!bundle.revision().equals(revision)) {
                return Optional.empty(); // another revision's (e.g. not yet rebuilt): looked at again later
            }
            if (bundle.archive().files().containsKey("policy.wasm")) {
                LOG.warn("Rego bundle {} is a Wasm bundle; explain needs the Rego one (make bundle)", file);
                return Optional.empty();
            }
            return Optional.of(bytes);
        } catch (IOException | BundleException | RuntimeException e) {
            LOG.warn("Rego bundle {} of revision {} not used: {}", file, revision, e.getMessage());
            return Optional.empty();
        }
    }

    /** A holder that looks for the bundle of {@code revision} until it has it. */
    Holder holder(String revision) {
        return new Holder(() -> find(revision));
    }

    /** The Rego bundle of one revision, once found; kept with the revision when it is retired. */
    static final class Holder {

        private final Supplier<Optional<byte[]>> lookup;
        private volatile byte[] found;

        Holder(Supplier<Optional<byte[]>> lookup) {
            this.lookup = lookup;
        }

        /** The bundle, looking for it first when {@code look} and it was not found yet. */
        Optional<byte[]> get(boolean look) {
            byte[] bytes = found;
            if (bytes == null && look) {
                bytes = lookup.get().orElse(null);
                found = bytes;
            }
            return Optional.ofNullable(bytes);
        }
    }
}
