package dev.gatehouse.gateway.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gatehouse.gateway.mcp.ToolRegistryFactory;
import dev.gatehouse.gateway.tools.ToolCall;
import dev.gatehouse.gateway.tools.ToolHandler;
import dev.gatehouse.gateway.tools.ToolOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * docs/domain.md §3: the access table and the registered tools match exactly, both ways; start-up fails naming the
 * tools otherwise. Uses the real table and schemas from the classpath (copied from policies/ and schemas/).
 */
class ToolRegistryTest {

    /** A handler that only has a name: the registry never calls it. */
    private record Named(String name) implements ToolHandler {
        @Override
        public ToolOutcome handle(ToolCall call) {
            throw new AssertionError("not called by the registry");
        }
    }

    private static List<Map.Entry<String, AccessRow>> table() {
        return ToolRegistryFactory.readTable();
    }

    private static List<ToolHandler> oneHandlerPerRow() {
        return new ArrayList<>(table().stream().map(row -> (ToolHandler) new Named(row.getKey())).toList());
    }

    @Test
    void theRealTableAndSchemasJoinOneToOne() {
        ToolRegistry registry = ToolRegistry.join(table(), ToolRegistryFactory::readSchema, oneHandlerPerRow());
        assertEquals(table().stream().map(Map.Entry::getKey).sorted().toList(),
                registry.all().stream().map(RegisteredTool::name).toList());
        assertFalse(registry.all().isEmpty());
        RegisteredTool send = registry.find("t3_thread_send").orElseThrow();
        assertEquals(List.of("threadId"), send.row().threadFields());
        assertEquals(Optional.of("orchestration"), send.row().capability());
        assertEquals(List.of("path"), registry.find("wiki_read").orElseThrow().row().pathFields());
        assertEquals(List.of(), send.row().pathFields());
        assertEquals("object", registry.find("project_work_list").orElseThrow().schema().inputSchema().get("type"));
        assertEquals(Optional.empty(), registry.find("WIKI_READ"));
    }

    @Test
    void aRowWithoutAHandlerStopsStartUpNamingTheTool() {
        List<ToolHandler> handlers = oneHandlerPerRow();
        handlers.removeIf(h -> h.name().equals("wiki_delete"));
        RegistryException e = assertThrows(RegistryException.class,
                () -> ToolRegistry.join(table(), ToolRegistryFactory::readSchema, handlers));
        assertEquals(List.of("access-table row without handler: wiki_delete"), e.problems());
    }

    @Test
    void aHandlerWithoutARowStopsStartUpNamingTheTool() {
        List<ToolHandler> handlers = oneHandlerPerRow();
        handlers.add(new Named("wiki_rename"));
        RegistryException e = assertThrows(RegistryException.class,
                () -> ToolRegistry.join(table(), ToolRegistryFactory::readSchema, handlers));
        assertEquals(List.of("handler without access-table row: wiki_rename"), e.problems());
    }

    @Test
    void aMissingSchemaStopsStartUpNamingTheTool() {
        RegistryException e = assertThrows(RegistryException.class, () -> ToolRegistry.join(table(),
                name -> name.equals("preview_open") ? Optional.empty() : ToolRegistryFactory.readSchema(name),
                oneHandlerPerRow()));
        assertEquals(List.of("access-table row without schemas/tools/preview_open.input.json"), e.problems());
    }

    @Test
    void duplicateNamesStopStartUp() {
        List<ToolHandler> handlers = oneHandlerPerRow();
        handlers.add(new Named("wiki_read"));
        List<Map.Entry<String, AccessRow>> rows = new ArrayList<>(table());
        rows.add(rows.get(0));
        RegistryException e = assertThrows(RegistryException.class,
                () -> ToolRegistry.join(rows, ToolRegistryFactory::readSchema, handlers));
        assertEquals(2, e.problems().size(), e.problems().toString());
        assertEquals("duplicate access-table row: " + rows.get(0).getKey(), e.problems().get(0));
    }
}
