package dev.gatehouse.gateway.policy.api;

import dev.gatehouse.facts.AccessRow;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What one policy revision says the PEP enforces, read from the revision itself when it is activated (entry point
 * {@code gatehouse/authz/enforcement}; docs/design.md, "One served revision"): the access table, every tool's closed
 * input schema and the reason catalogue. The PEP holds no other copy, so a hot-swapped revision changes all of
 * them at once, together with the engine that decides on them.
 *
 * @param rows        tool name → its access-table row, in the table's order
 * @param schemas     tool name → its input schema as JSON values ({@code Map}/{@code List}/scalars), for every row
 * @param reasons     reason code → what the rule that produces it says of it (its METADATA)
 * @param accessTable the access table exactly as the revision holds it, as JSON values (the admin read API)
 * @param ceilings    the ceilings an outside agent's token may name, sorted (for operators choosing one)
 * @param modes       axis ({@code runtimeMode}, {@code interactionMode}) → its modes, sorted (for operators writing
 *                    a delivery profile)
 */
public record PolicyContents(Map<String, AccessRow> rows, Map<String, Map<String, Object>> schemas,
        Map<String, ReasonEntry> reasons, Map<String, Object> accessTable, List<String> ceilings,
        Map<String, List<String>> modes) {

    public PolicyContents {
        Objects.requireNonNull(rows, "rows");
        Objects.requireNonNull(schemas, "schemas");
        Objects.requireNonNull(reasons, "reasons");
        Objects.requireNonNull(accessTable, "accessTable");
        ceilings = List.copyOf(ceilings);
        modes = Map.copyOf(modes);
    }

    /** The row of exactly {@code tool} (no case folding or trimming: docs/domain.md §3), if the revision has one. */
    public Optional<AccessRow> row(String tool) {
        return Optional.ofNullable(rows.get(tool));
    }

    /**
     * Whether a reason code reports a fault the caller may retry (docs/domain.md §8) rather than a decision against
     * it, as its rule's METADATA says ({@code custom.retryable}). A code the catalogue does not know is not.
     */
    public boolean retryable(String code) {
        ReasonEntry entry = reasons.get(code);
        return entry != null && entry.retryable();
    }

    /**
     * One reason code as its rule's METADATA describes it (scripts/reason_catalogue.py).
     *
     * @param family      the policy family that produces it ({@code caller}, {@code wiki} …)
     * @param title       the rule's title
     * @param description the rule's description, one line
     * @param retryable   whether the code reports a fault the caller may retry
     * @param rule        {@code file:row} of the rule in the policy sources
     */
    public record ReasonEntry(String family, String title, String description, boolean retryable, String rule) {

        public ReasonEntry {
            Objects.requireNonNull(family, "family");
            Objects.requireNonNull(title, "title");
            Objects.requireNonNull(description, "description");
            Objects.requireNonNull(rule, "rule");
        }
    }
}
