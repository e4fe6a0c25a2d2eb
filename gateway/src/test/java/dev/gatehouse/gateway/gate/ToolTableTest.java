package dev.gatehouse.gateway.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gatehouse.facts.ArgumentCheck;
import dev.gatehouse.facts.ClosedSchemaArgumentCheck;
import dev.gatehouse.gateway.policy.api.PolicyContents;
import dev.gatehouse.gateway.support.PolicySources;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolHandler;
import dev.gatehouse.gateway.tools.ToolOutcome;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * docs/domain.md §3: a revision's rows and schemas and this gateway's handlers match exactly, both ways; a revision
 * that does not is refused naming the tools ({@link ToolTables} is what the PDP asks before it activates one). Uses
 * the real table and schemas of the repository, which {@code make bundle} signs into the served revision.
 */
class ToolTableTest {

    private static final ArgumentCheck CHECK = new ClosedSchemaArgumentCheck();

    /** A handler that only has a name: the table never calls it. */
    private record Named(String name) implements ToolHandler {
        @Override
        public ToolOutcome handle(ToolCall call) {
            throw new AssertionError("not called by the table");
        }
    }

    private static Map<String, ToolHandler> oneHandlerPerRow() {
        Map<String, ToolHandler> handlers = new LinkedHashMap<>();
        PolicySources.accessTable().keySet().forEach(name -> handlers.put(name, new Named(name)));
        return handlers;
    }

    private static List<String> problems(PolicyContents contents, Map<String, ToolHandler> handlers) {
        ToolTable.Join join = ToolTable.join(contents, handlers, CHECK);
        return assertInstanceOf(ToolTable.Problems.class, join, () -> "joined " + contents.schemas()
                .get("wiki_read")).problems();
    }

    @Test
    void theRealTableAndSchemasJoinOneToOne() {
        ToolTable table = assertInstanceOf(ToolTable.Joined.class,
                ToolTable.join(PolicySources.contents(), oneHandlerPerRow(), CHECK)).table();
        assertEquals(PolicySources.accessTable().keySet().stream().sorted().toList(),
                table.all().stream().map(ServedTool::name).toList());
        ServedTool send = table.find("t3_thread_send").orElseThrow();
        assertEquals(List.of("threadId"), send.row().threadFields());
        assertEquals(Optional.of("orchestration"), send.row().capability());
        assertEquals(List.of("path"), table.find("wiki_read").orElseThrow().row().pathFields());
        assertEquals(List.of(), send.row().pathFields());
        assertEquals("object", table.find("project_work_list").orElseThrow().schema().inputSchema().get("type"));
        assertEquals(Optional.empty(), table.find("WIKI_READ"));
    }

    @Test
    void aRowWithoutAHandlerIsAProblemNamingTheTool() {
        Map<String, ToolHandler> handlers = oneHandlerPerRow();
        handlers.remove("wiki_delete");
        assertEquals(List.of("access-table row without handler: wiki_delete"),
                problems(PolicySources.contents(), handlers));
    }

    @Test
    void aHandlerWithoutARowIsAProblemNamingTheTool() {
        Map<String, ToolHandler> handlers = oneHandlerPerRow();
        handlers.put("wiki_rename", new Named("wiki_rename"));
        assertEquals(List.of("handler without access-table row: wiki_rename"),
                problems(PolicySources.contents(), handlers));
    }

    @Test
    void aMissingSchemaIsAProblemNamingTheTool() {
        assertEquals(List.of("access-table row without input schema (schemas/tools/preview_open.input.json): "
                + "preview_open"), problems(PolicySources.contents(schemas -> schemas.remove("preview_open")),
                oneHandlerPerRow()));
    }

    /** Every way a schema can fail to compile is named; the other rows are still checked. */
    @Test
    void aSchemaThatDoesNotCompileIsAProblemNamingTheTool() {
        for (Object broken : List.of(5, "strung", List.of("type"), Map.of("$ref", "#/nowhere"),
                Map.of("$ref", "https://elsewhere.example/schema.json"))) {
            List<String> problems = problems(PolicySources.contents(schemas -> {
                Map<String, Object> schema = new LinkedHashMap<>(schemas.get("wiki_read"));
                schema.put("type", broken);
                if (broken instanceof Map<?, ?> reference) {
                    schema.remove("type");
                    schema.put("properties", Map.of("path", reference));
                }
                schemas.put("wiki_read", schema);
            }), oneHandlerPerRow());
            assertEquals(1, problems.size(), broken + ": " + problems);
            assertTrue(problems.get(0).startsWith("input schema of wiki_read does not compile: "), problems.get(0));
        }
    }

    @Test
    void twoHandlersOfOneNameStopStartUp() {
        List<ToolHandler> handlers = new ArrayList<>(oneHandlerPerRow().values());
        handlers.add(new Named("wiki_read"));
        RegistryException e = assertThrows(RegistryException.class, () -> new ToolTables(handlers, CHECK));
        assertEquals(1, e.problems().size(), e.problems().toString());
        assertTrue(e.problems().get(0).startsWith("duplicate handler for wiki_read: "), e.problems().get(0));
    }

    @Test
    void theTablesAnswerTheTableOfContentsTheyChecked() {
        ToolTables tables = new ToolTables(oneHandlerPerRow().values(), CHECK);
        PolicyContents contents = PolicySources.contents();
        assertEquals(List.of(), tables.problems(contents));
        assertSame(tables.of(contents), tables.of(contents));
        PolicyContents broken = PolicySources.contents(schemas -> schemas.remove("wiki_read"));
        assertEquals(1, tables.problems(broken).size());
        assertThrows(IllegalStateException.class, () -> tables.of(broken));
    }
}
