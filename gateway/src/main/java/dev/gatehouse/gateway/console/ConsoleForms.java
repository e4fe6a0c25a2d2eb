package dev.gatehouse.gateway.console;

import dev.gatehouse.gateway.admin.AdminResult;
import dev.gatehouse.gateway.admin.FieldProblem;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Field messages for a refused admin request, keyed by the form field's name: the admin API's name, with the settings'
 * {@code project.} prefix dropped (the forms are flat).
 */
final class ConsoleForms {

    private ConsoleForms() {
    }

    static Map<String, String> problems(AdminResult<?> result) {
        Map<String, String> problems = new LinkedHashMap<>();
        if (result instanceof AdminResult.Refused<?> refused) {
            for (FieldProblem problem : refused.problems()) {
                problems.merge(problem.field().replaceFirst("^project\\.", ""), problem.message(),
                        (a, b) -> a + " " + b);
            }
        }
        return problems;
    }
}
