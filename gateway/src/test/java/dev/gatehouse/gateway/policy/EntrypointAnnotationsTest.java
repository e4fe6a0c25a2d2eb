package dev.gatehouse.gateway.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gatehouse.facts.PolicyJson;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The entry points the gateway evaluates ({@link Entrypoint}) are exactly the rules policies/ annotates
 * {@code entrypoint: true}, which {@code opa build} exports from the annotations: one source, tied by this test (a
 * revision that lacks one is refused at activation, EmbeddedPdpActivationTest).
 */
class EntrypointAnnotationsTest {

    @Test
    void theGatewaysEntryPointsAreThePolicysAnnotatedOnes() throws Exception {
        Process inspect = new ProcessBuilder(TestBundle.opa().toString(), "inspect", "-a", "--format", "json",
                TestBundle.policies().toString()).redirectErrorStream(false).start();
        JsonNode inspected = PolicyJson.MAPPER.readTree(inspect.getInputStream());
        assertEquals(0, inspect.waitFor());
        Set<String> annotated = new TreeSet<>();
        for (JsonNode entry : inspected.path("annotations")) {
            if (entry.path("annotations").path("entrypoint").asBoolean(false)) {
                List<String> path = new java.util.ArrayList<>();
                entry.path("path").forEach(part -> {
                    if (part.path("type").asText().equals("string")) {
                        path.add(part.path("value").asText());
                    }
                });
                annotated.add(String.join("/", path));
            }
        }
        Set<String> asked = new TreeSet<>();
        Arrays.stream(Entrypoint.values()).forEach(entrypoint -> asked.add(entrypoint.path()));
        assertEquals(asked, annotated);
    }
}
