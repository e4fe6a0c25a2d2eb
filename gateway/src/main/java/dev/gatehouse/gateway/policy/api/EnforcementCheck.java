package dev.gatehouse.gateway.policy.api;

import java.util.List;

/**
 * Whether this gateway can enforce a revision's contents, asked before the revision is activated, like its signature
 * (docs/design.md, "One served revision"): every row has a handler here and every handler a row, every row a schema
 * that compiles. A revision with problems is refused and the serving one keeps serving. Implemented by the PEP, which
 * may prepare what it needs from the contents (compiled schemas) while it checks.
 */
@FunctionalInterface
public interface EnforcementCheck {

    /**
     * @param contents the revision's access table, schemas and reason catalogue
     * @return every problem found, each a sentence naming the tool; empty when the revision can be enforced
     */
    List<String> problems(PolicyContents contents);
}
