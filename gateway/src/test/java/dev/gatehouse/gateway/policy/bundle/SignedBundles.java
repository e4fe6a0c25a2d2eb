package dev.gatehouse.gateway.policy.bundle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gatehouse.gateway.policy.TestBundle;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * Test bundles signed by the real {@code opa build --signing-key}, with key pairs made per test, and tampered copies
 * of them (files changed, added or removed after signing, entry names and order kept).
 */
public final class SignedBundles {

    private SignedBundles() {
    }

    /** A key pair as PEM files: {@code private.pem} (PKCS#8) and {@code public.pem} (X.509 SubjectPublicKeyInfo). */
    public record Keys(Path privateKey, Path publicKey) {

        /** The public key as the verification of OPA's default key id with RS256, and {@code scope}. */
        public BundleVerification verification(String scope) throws IOException {
            return BundleVerification.withKey("default",
                    new VerificationKey("RS256", Files.readString(publicKey), ""), scope);
        }
    }

    /** Makes an RSA 2048 key pair in {@code dir}. */
    public static Keys keys(Path dir) throws IOException {
        Files.createDirectories(dir);
        KeyPair pair;
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            pair = generator.generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        Path privateKey = Files.writeString(dir.resolve("private.pem"), pem("PRIVATE KEY",
                pair.getPrivate().getEncoded()));
        Path publicKey = Files.writeString(dir.resolve("public.pem"), pem("PUBLIC KEY",
                pair.getPublic().getEncoded()));
        return new Keys(privateKey, publicKey);
    }

    /** A copy of {@code policies/} in {@code dir}, to which a test may add files. */
    public static Path policiesCopy(Path dir) throws IOException {
        Path copy = dir.resolve("policies");
        try (var files = Files.walk(TestBundle.policies())) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Path target = copy.resolve(TestBundle.policies().relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
        return copy;
    }

    /**
     * The bundle {@code make bundle} would build from {@code policies} (scripts/build-bundle.sh: the policies staged
     * with the repository's tool schemas and the reason catalogue, files named {@code policies/…}).
     *
     * @param wasm       true for {@code -t wasm} with the Wasm capabilities
     * @param revision   the manifest revision
     * @param signingKey the private key, or null for an unsigned bundle
     * @param claims     extra signature claims ({@code --claims-file}), e.g. {@code {"iat": 1, "scope": "x"}}
     */
    public static Path build(Path policies, Path target, boolean wasm, String revision, Path signingKey,
            String claims) throws IOException {
        return build(policies, TestBundle.repo().resolve("schemas/tools"), target, wasm, revision, signingKey, claims);
    }

    /** {@link #build(Path, Path, boolean, String, Path, String)} with the tool input schemas of {@code schemas}. */
    public static Path build(Path policies, Path schemas, Path target, boolean wasm, String revision,
            Path signingKey, String claims) throws IOException {
        List<String> command = new ArrayList<>(List.of(TestBundle.repo().resolve("scripts/build-bundle.sh")
                .toString(), "-o", target.toAbsolutePath().toString(), "--policies", policies.toString(),
                "--schemas", schemas.toString(), "--revision", revision));
        if (wasm) {
            command.add("--wasm");
        }
        command.add("--");
        command.addAll(signing(target, signingKey, claims));
        run(command, TestBundle.repo());
        return target;
    }

    /**
     * A plain {@code opa build} of whatever {@code dir} holds (files named {@code <dir name>/…}), without staging: for
     * tests of bundle verification that need data no policy reads.
     */
    public static Path buildRaw(Path dir, Path target, String revision, Path signingKey, String claims)
            throws IOException {
        List<String> command = new ArrayList<>(List.of(TestBundle.opa().toString(), "build", "-b",
                dir.getFileName().toString(), "--revision", revision, "-o", target.toAbsolutePath().toString()));
        command.addAll(signing(target, signingKey, claims));
        run(command, dir.getParent());
        return target;
    }

    private static List<String> signing(Path target, Path signingKey, String claims) throws IOException {
        List<String> options = new ArrayList<>();
        if (signingKey != null) {
            options.addAll(List.of("--signing-key", signingKey.toAbsolutePath().toString()));
            if (claims != null) {
                Path claimsFile = Files.writeString(target.resolveSibling(target.getFileName() + ".claims.json"),
                        claims);
                options.addAll(List.of("--claims-file", claimsFile.toAbsolutePath().toString()));
            }
        }
        return options;
    }

    private static void run(List<String> command, Path directory) throws IOException {
        try {
            ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile())
                    .redirectErrorStream(true);
            builder.environment().put("OPA", TestBundle.opa().toString());
            Process process = builder.start();
            String out = new String(process.getInputStream().readAllBytes());
            assertEquals(0, process.waitFor(), "bundle build failed: " + command + "\n" + out);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    /** The entries of a bundle as written (names with their leading {@code /}), in order. */
    public static Map<String, byte[]> entries(Path bundle) throws IOException {
        Map<String, byte[]> entries = new LinkedHashMap<>();
        try (TarArchiveInputStream tar = new TarArchiveInputStream(
                new java.util.zip.GZIPInputStream(Files.newInputStream(bundle)))) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                if (entry.isFile()) {
                    entries.put(entry.getName(), tar.readAllBytes());
                }
            }
        }
        return entries;
    }

    /** Writes {@code edit(entries of source)} as a new bundle. */
    public static Path tamper(Path source, Path target, UnaryOperator<Map<String, byte[]>> edit) throws IOException {
        Map<String, byte[]> entries = edit.apply(entries(source));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(new GZIPOutputStream(bytes))) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (Map.Entry<String, byte[]> entry : entries.entrySet()) {
                TarArchiveEntry header = new TarArchiveEntry(entry.getKey(), true);
                header.setSize(entry.getValue().length);
                tar.putArchiveEntry(header);
                tar.write(entry.getValue());
                tar.closeArchiveEntry();
            }
        }
        return Files.write(target, bytes.toByteArray());
    }

    /** The first entry whose name ends with {@code suffix}. */
    public static String name(Map<String, byte[]> entries, String suffix) {
        return entries.keySet().stream().filter(name -> name.endsWith(suffix)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no entry ends with " + suffix));
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
