package dev.gatehouse.gateway.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.facts.PolicyJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every golden suite is replayed by the Java engines: {@link PdpContractTest} replays the cases of
 * {@link GoldenCases#all()} (the tools/call decision) and of {@link GoldenCases#at} the notice entry point, and a
 * suite naming any other entry point would be skipped without a word. The Rego replay has the same check
 * ({@code make policy-golden-suites}).
 */
class GoldenSuitesTest {

    @Test
    void everyGoldenCaseIsReplayedAtAnEntryPointTheContractReplays() throws IOException {
        Map<String, Integer> onDisk = new TreeMap<>();
        Map<String, Integer> replayed = new TreeMap<>();
        try (Stream<Path> families = Files.list(TestBundle.repo().resolve("policy-tests/golden"))) {
            for (Path file : families.map(dir -> dir.resolve("cases.json")).filter(Files::isRegularFile).toList()) {
                JsonNode suite = PolicyJson.MAPPER.readTree(file.toFile());
                onDisk.put(file.getParent().getFileName().toString(), suite.path("cases").size());
            }
        }
        Stream.concat(GoldenCases.all().stream(), GoldenCases.at(Entrypoint.NOTICE).stream())
                .forEach(c -> replayed.merge(c.family(), 1, Integer::sum));
        assertEquals(onDisk, replayed, "cases per family on disk vs replayed by PdpContractTest");
    }
}
