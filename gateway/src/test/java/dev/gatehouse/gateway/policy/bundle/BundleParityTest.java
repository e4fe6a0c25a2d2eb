package dev.gatehouse.gateway.policy.bundle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import dev.gatehouse.facts.PolicyJson;
import dev.gatehouse.gateway.policy.TestBundle;
import dev.gatehouse.gateway.policy.remote.OpaServer;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdp;
import dev.gatehouse.gateway.policy.embedded.EmbeddedPdpConfiguration;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One policy, every engine, for bundle verification: each row of the table is a kind of bundle, made with the real
 * {@code opa build --signing-key} and tampered with after signing. For every row
 * <ul>
 *   <li>a real {@code opa run --server --verification-key <public.pem>} is given the Rego bundle of the row (it
 *       serves it, or exits refusing it), and our {@link BundleVerifier} is given the same bytes;</li>
 *   <li>the embedded PDP is offered the Wasm bundle of the row, made and tampered with the same way;</li>
 * </ul>
 * and all three must match the row's expected accept/refuse. The signed data carries JSON that OPA's canonical file
 * digest treats specially (unsorted keys, non-ASCII, U+2028, control characters, {@code <>&}, number spellings), so
 * a difference in the digest shows as a refused valid row.
 */
class BundleParityTest {

    private static final String TRICKY_DATA = """
            {"z": 1, "a": {"y": [1.0, 1e5, -0, 12345678901234567890], "b": "<tag> & \\u2028 \\u0007 \\t é 𐀀 \\"q\\""},
             "m": {"é": true, "e": false, "𐀀": null, "\\uffff": 1}}
            """;

    @TempDir
    static Path dir;

    private static SignedBundles.Keys keys;
    private static SignedBundles.Keys otherKeys;
    private static final Map<String, Path> rego = new LinkedHashMap<>();
    private static final Map<String, Path> wasm = new LinkedHashMap<>();

    @BeforeAll
    static void buildBundles() throws IOException {
        keys = SignedBundles.keys(dir.resolve("keys"));
        otherKeys = SignedBundles.keys(dir.resolve("other-keys"));
        Path policies = SignedBundles.policiesCopy(dir.resolve("src"));
        Files.createDirectories(policies.resolve("gatehouse/paritytest"));
        Files.writeString(policies.resolve("gatehouse/paritytest/data.json"), TRICKY_DATA);
        for (boolean isWasm : new boolean[] {false, true}) {
            Map<String, Path> made = isWasm ? wasm : rego;
            String kind = isWasm ? "wasm" : "rego";
            made.put("valid", SignedBundles.build(policies, dir.resolve(kind + "-valid.tar.gz"), isWasm, "r1",
                    keys.privateKey(), "{\"iat\": 1000}"));
            made.put("other key", SignedBundles.build(policies, dir.resolve(kind + "-other.tar.gz"), isWasm, "r1",
                    otherKeys.privateKey(), null));
            made.put("unsigned", SignedBundles.build(policies, dir.resolve(kind + "-unsigned.tar.gz"), isWasm, "r1",
                    null, null));
            made.put("wrong scope", SignedBundles.build(policies, dir.resolve(kind + "-scope.tar.gz"), isWasm, "r1",
                    keys.privateKey(), "{\"scope\": \"write\"}"));
        }
    }

    static Stream<Arguments> table() {
        return Stream.of(
                row("valid", true, entries -> entries),
                // whitespace only: OPA's digest keeps number spellings (1e5 is not 100000.0), so a re-serialiser
                // that rewrites numbers would change it
                row("data.json reformatted, same JSON", true, entries -> replace(entries, "/data.json",
                        reformat(entries.get("/data.json")))),
                row("one policy byte changed", false, entries -> {
                    String name = SignedBundles.name(entries, "tools/tools.rego");
                    byte[] changed = entries.get(name).clone();
                    changed[2] = (byte) (changed[2] == 'x' ? 'y' : 'x'); // inside the leading comment
                    return replace(entries, name, changed);
                }),
                row("data.json changed", false, entries -> {
                    String data = new String(reformat(entries.get("/data.json")), StandardCharsets.UTF_8);
                    String changed = data.replaceFirst("\"z\" : 1(?![0-9])", "\"z\" : 2");
                    assertTrue(!changed.equals(data), "the row changes one value");
                    return replace(entries, "/data.json", changed.getBytes(StandardCharsets.UTF_8));
                }),
                row("a file added", false, entries -> {
                    Map<String, byte[]> added = new LinkedHashMap<>(entries);
                    added.put("/extra/notes.txt", "not signed".getBytes(StandardCharsets.UTF_8));
                    return added;
                }),
                row("a file removed", false, entries -> {
                    Map<String, byte[]> removed = new LinkedHashMap<>(entries);
                    removed.remove(SignedBundles.name(entries, "tools/tools.rego"));
                    return removed;
                }),
                row("signed by another key", false, "other key", entries -> entries),
                row("unsigned", false, "unsigned", entries -> entries),
                row("wrong scope", false, "wrong scope", entries -> entries));
    }

    @ParameterizedTest(name = "{0}: accepted={1}")
    @MethodSource("table")
    void opaTheVerifierAndTheEmbeddedEngineAgree(String row, boolean accepted, String base,
            UnaryOperator<Map<String, byte[]>> edit) throws Exception {
        String file = row.replaceAll("[^a-z]+", "-");
        Path regoBundle = SignedBundles.tamper(rego.get(base), dir.resolve("row-rego-" + file + ".tar.gz"), edit);
        Path wasmBundle = SignedBundles.tamper(wasm.get(base), dir.resolve("row-wasm-" + file + ".tar.gz"), edit);

        String opa = opaServes(regoBundle);
        assertEquals(accepted, opa.isEmpty(), "opa run: " + opa);

        String verifier = verify(regoBundle);
        assertEquals(accepted, verifier.isEmpty(), "BundleVerifier on OPA's bytes: " + verifier);

        EmbeddedPdpConfiguration configuration = TestBundle.configuration(wasmBundle);
        configuration.setVerificationKey(keys.publicKey().toString());
        configuration.setPoolSize(1);
        EmbeddedPdp pdp = new EmbeddedPdp(configuration);
        assertEquals(accepted, pdp.status().healthy(), "embedded engine: " + pdp.status());
        if (accepted) {
            assertEquals("r1", pdp.status().bundleRevision().orElseThrow());
            assertEquals("default", pdp.status().bundleKeyId().orElseThrow());
        }
    }

    private static String verify(Path bundle) throws IOException {
        try {
            PolicyBundle.verify(BundleArchive.read(bundle), keys.verification(""));
            return "";
        } catch (BundleException e) {
            return e.getMessage();
        }
    }

    /** Starts OPA on the bundle: "" when it serves it, else what it logged when it refused it. */
    private static String opaServes(Path bundle) throws IOException, InterruptedException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Path log = Files.createTempFile(dir, "opa", ".log");
        List<String> command = new ArrayList<>(List.of(TestBundle.opa().toString(), "run", "--server",
                "--addr", "127.0.0.1:" + port, "--log-level", "error", "--verification-key",
                keys.publicKey().toString(), "-b", bundle.toString()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < until) {
                if (!process.isAlive()) {
                    String out = Files.readString(log);
                    assertTrue(!out.isBlank(), "OPA exited without saying why");
                    return out;
                }
                if (OpaServer.ready("http://127.0.0.1:" + port)) {
                    return "";
                }
                Thread.sleep(50);
            }
            throw new IllegalStateException("OPA neither served nor refused " + bundle);
        } finally {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }

    private static Arguments row(String name, boolean accepted, UnaryOperator<Map<String, byte[]>> edit) {
        return row(name, accepted, "valid", edit);
    }

    private static Arguments row(String name, boolean accepted, String base, UnaryOperator<Map<String, byte[]>> edit) {
        return Arguments.of(name, accepted, base, edit);
    }

    private static Map<String, byte[]> replace(Map<String, byte[]> entries, String name, byte[] content) {
        Map<String, byte[]> copy = new LinkedHashMap<>(entries);
        copy.put(name, content);
        return copy;
    }

    /** The same JSON token by token (numbers as written), pretty-printed. */
    private static byte[] reformat(byte[] json) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        try (JsonParser parser = PolicyJson.MAPPER.getFactory().createParser(json);
                JsonGenerator generator = PolicyJson.MAPPER.getFactory().createGenerator(out)) {
            generator.useDefaultPrettyPrinter();
            while (parser.nextToken() != null) {
                if (parser.currentToken().isNumeric()) {
                    generator.writeNumber(parser.getText());
                } else {
                    generator.copyCurrentEvent(parser);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return out.toByteArray();
    }
}
