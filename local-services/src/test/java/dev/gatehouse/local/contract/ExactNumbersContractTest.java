package dev.gatehouse.local.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gatehouse.facade.error.FacadeResult;
import dev.gatehouse.facade.project.HttpProjectFacade;
import dev.gatehouse.facade.project.Operation;
import dev.gatehouse.facade.project.ProjectBinding;
import dev.gatehouse.facade.project.WorkRun;
import dev.gatehouse.facade.project.WorkSubmission;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A work result's numbers are stored as the facade sent them, through a restart: out of double range, beyond its
 * precision, trailing zeros (found as 1e400 stored as "Infinity" and fractions rounded by a fresh-user run).
 */
class ExactNumbersContractTest {

    private static final ProjectBinding A1_DEMO = new ProjectBinding("a1", "ps-demo");
    private static final List<String> LITERALS = List.of("1E+400", "-1E+400", "1E-400", "12345678901234567890.5",
            "0.1000000000000000055511151231257827", "1.50", "123456789012345678901234567890");

    @Test
    void aResultsNumbersAreStoredExactlyAndSurviveARestart(@TempDir Path tmp) throws Exception {
        Path data = tmp.resolve("fresh"); // a directory that does not exist yet is seeded with the demo
        Map<String, Object> result = new LinkedHashMap<>();
        for (int i = 0; i < LITERALS.size(); i++) {
            result.put("n" + i, new BigDecimal(LITERALS.get(i)));
        }
        try (LocalServices services = new LocalServices(data)) {
            HttpProjectFacade project = services.project();
            WorkRun run = ((FacadeResult.Ok<WorkRun>) assertInstanceOf(FacadeResult.Ok.class,
                    project.getWork(A1_DEMO, "run-101"))).value();
            FacadeResult<Operation> submitted = project.submitWork(A1_DEMO, new WorkSubmission("run-101",
                    run.runRevision(), run.assignmentRevision(), result), LocalServices.key());
            assertEquals("committed", ((FacadeResult.Ok<Operation>) assertInstanceOf(FacadeResult.Ok.class,
                    submitted, String.valueOf(submitted))).value().status());
        }
        try (LocalServices restarted = new LocalServices(data)) {
            assertInstanceOf(FacadeResult.Ok.class, restarted.project().getWork(A1_DEMO, "run-101"));
        }
        ObjectMapper exact = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
        try (var files = Files.walk(data)) {
            Path state = files.filter(p -> p.toString().endsWith("project/state.json")).findFirst().orElseThrow();
            JsonNode stored = exact.readTree(state.toFile()).findParent("n0");
            for (int i = 0; i < LITERALS.size(); i++) {
                assertEquals(0, new BigDecimal(LITERALS.get(i)).compareTo(stored.get("n" + i).decimalValue()),
                        LITERALS.get(i) + " stored as " + stored.get("n" + i));
            }
        }
    }
}
