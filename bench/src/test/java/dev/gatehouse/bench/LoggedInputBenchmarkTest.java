package dev.gatehouse.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which records of a decision log the engine benchmark takes as its inputs. */
class LoggedInputBenchmarkTest {

    private static final String DECISION = "\"path\":\"gatehouse/authz/decision\"";

    @Test
    void onlyTheNamedToolsEvaluatedUnmaskedCallInputsAreTakenAsWritten(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("decisions.jsonl");
        Files.write(log, List.of(
                "{" + DECISION + ",\"tool\":\"wiki_read\",\"input\":{\"tool\":\"wiki_read\",\"n\":1.50}}",
                "{" + DECISION + ",\"tool\":\"project_work_list\",\"input\":{\"tool\":\"project_work_list\"}}",
                "{\"path\":\"gatehouse/authz/visible_tools\",\"tool\":\"wiki_read\",\"input\":{\"list\":true}}",
                "{" + DECISION + ",\"tool\":\"wiki_read\",\"input\":{\"a\":1},\"masked\":[\"/arguments/a\"]}",
                "{" + DECISION + ",\"tool\":\"wiki_read\",\"input\":\"reduced\"}",
                "{" + DECISION + ",\"tool\":\"wiki_read\"}",
                "{" + DECISION + ",\"tool\":\"wiki_read\",\"input\":{\"tool\":\"wiki_read\",\"s\":\"é\"},"
                        + "\"masked\":[]}"));
        assertEquals(List.of("{\"tool\":\"wiki_read\",\"n\":1.50}", "{\"tool\":\"wiki_read\",\"s\":\"é\"}"),
                LoggedInputBenchmark.inputs(log, "wiki_read"));
        assertEquals(List.of("{\"tool\":\"project_work_list\"}"),
                LoggedInputBenchmark.inputs(log, "project_work_list"));
        assertEquals(List.of(), LoggedInputBenchmark.inputs(log, "wiki_write"));
    }
}
