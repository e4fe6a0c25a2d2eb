package dev.gatehouse.gateway.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gatehouse.gateway.support.PolicySources;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Every handler bean lives in the package of its row's toolkit ({@code tools/<toolkit>}), and there is exactly one
 * per access-table row. The handlers come from the application context and the rows from the table, so nothing here
 * lists tools.
 */
@MicronautTest(startApplication = false)
class ToolCatalogueTest {

    @Inject
    List<ToolHandler> handlers;

    @Test
    void handlersMatchTheAccessTableRowByRowAndToolkitByToolkit() {
        Map<String, String> toolkitByName = new TreeMap<>();
        for (ToolHandler handler : handlers) {
            String toolkit = handler.getClass().getPackageName().substring(ToolHandler.class.getPackageName()
                    .length() + 1);
            assertEquals(null, toolkitByName.put(handler.name(), toolkit), "duplicate " + handler.name());
        }
        Map<String, String> expected = new TreeMap<>();
        PolicySources.accessTable().forEach((name, row) -> expected.put(name, (String) row.get("toolkit")));
        assertEquals(expected, toolkitByName);
    }
}
