package dev.gatehouse.gateway.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.facts.PolicyJson;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.gateway.policy.bundle.BundleException;
import dev.gatehouse.gateway.policy.bundle.BundleVerification;
import dev.gatehouse.gateway.policy.bundle.VerificationKey;
import dev.gatehouse.gateway.policy.embedded.BundleReader;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdpConfiguration;
import dev.gatehouse.gateway.policy.embedded.WasmBundle;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * Where the build put things: the repository, the Wasm bundle of {@code make bundle}, and the pinned OPA binary.
 * Paths come from the system properties gateway/pom.xml passes to surefire.
 */
public final class TestBundle {

    private TestBundle() {
    }

    /** The repository root ({@code gatehouse.repo.dir}). */
    public static Path repo() {
        return Path.of(System.getProperty("gatehouse.repo.dir", "..")).toAbsolutePath().normalize();
    }

    /** {@code policies/} in the repository: the Rego sources the bundle was built from. */
    public static Path policies() {
        return repo().resolve("policies");
    }

    /**
     * The Wasm bundle, checked to exist and to be built from the current {@code policies/}: its manifest revision
     * must equal {@code scripts/source-revision.sh}, so parity failures are never caused by a stale bundle.
     */
    public static Path freshBundle() {
        Path bundle = Path.of(System.getProperty("gatehouse.bundle.dir", repo().resolve("target/bundle").toString()))
                .resolve("bundle.tar.gz");
        assertTrue(Files.isRegularFile(bundle), bundle + " is missing: run make bundle");
        assertEquals(sourceRevision(), manifestRevision(bundle),
                bundle + " was built from other policies than policies/: run make bundle");
        return bundle;
    }

    /**
     * The public key {@code make bundle} signed the bundle with ({@code gatehouse.bundle.public-key}, else the
     * repository's {@code .gatehouse-data/bundle-signing/public.pem}).
     */
    public static Path publicKey() {
        Path key = Path.of(System.getProperty("gatehouse.bundle.public-key",
                repo().resolve(".gatehouse-data/bundle-signing/public.pem").toString()));
        assertTrue(Files.isRegularFile(key), key + " is missing: run make bundle");
        return key;
    }

    /** How the bundle of {@code make bundle} verifies: its public key as OPA's default key id, RS256. */
    public static BundleVerification verification() {
        try {
            return BundleVerification.withKey("default",
                    new VerificationKey("RS256", Files.readString(publicKey()), ""), "");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An embedded-PDP configuration for {@code bundle}, verified with {@link #publicKey()}. */
    public static EmbeddedPdpConfiguration configuration(Path bundle) {
        EmbeddedPdpConfiguration configuration = new EmbeddedPdpConfiguration();
        configuration.setBundlePath(bundle.toString());
        configuration.setVerificationKey(publicKey().toString());
        return configuration;
    }

    /** The fresh bundle of {@code make bundle}, read and verified. */
    public static WasmBundle freshWasmBundle() {
        try {
            return BundleReader.read(freshBundle(), verification());
        } catch (BundleException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The pinned OPA ({@code gatehouse.opa} system property, else the Makefile's cache path). */
    public static Path opa() {
        Path opa = Path.of(System.getProperty("gatehouse.opa",
                System.getProperty("user.home") + "/.cache/gatehouse/opa-v1.22.3/opa"));
        assertTrue(Files.isExecutable(opa), opa + " is missing: run make opa");
        return opa;
    }

    private static String sourceRevision() {
        try {
            Process process = new ProcessBuilder(repo().resolve("scripts/source-revision.sh").toString())
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            assertEquals(0, process.waitFor(), "scripts/source-revision.sh failed");
            return out;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String manifestRevision(Path bundle) {
        try (InputStream file = Files.newInputStream(bundle);
                TarArchiveInputStream tar = new TarArchiveInputStream(new GZIPInputStream(file))) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                if (entry.getName().equals("/.manifest") || entry.getName().equals(".manifest")) {
                    JsonNode manifest = PolicyJson.MAPPER.readTree(tar.readAllBytes());
                    return manifest.path("revision").asText();
                }
            }
            throw new IllegalStateException(bundle + " has no .manifest");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
