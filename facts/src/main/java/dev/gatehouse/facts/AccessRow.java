package dev.gatehouse.facts;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One row of the access table (policies/gatehouse/access_table/data.json, schemas/access-table.json) as the served
 * revision gives it. The policy reads the same row to decide; Java reads it only to know which argument fields name
 * target threads (whose shells the PIP must look up), which fields' values the policy reads, and which obligations an
 * allowed call of the row must carry (docs/design.md, Decision contract). Nothing here says what the fields mean.
 *
 * @param toolkit      the facade family serving the tool ({@code thread|project|wiki} today)
 * @param accessClass  the access class (docs/domain.md §3)
 * @param capability   the capability the row needs, if any (docs/domain.md §4)
 * @param threadFields argument fields naming target threads
 * @param modeFields   axis → argument field requesting a mode on that axis; each field gets a {@code modes}
 *                     obligation
 * @param pathFields   argument fields holding confined wiki paths; each gets a {@code wikiPaths} obligation
 */
public record AccessRow(String toolkit, String accessClass, Optional<String> capability, List<String> threadFields,
        Map<String, String> modeFields, List<String> pathFields) {

    public AccessRow {
        Objects.requireNonNull(toolkit, "toolkit");
        Objects.requireNonNull(accessClass, "accessClass");
        Objects.requireNonNull(capability, "capability");
        threadFields = List.copyOf(threadFields);
        modeFields = Map.copyOf(modeFields);
        pathFields = List.copyOf(pathFields);
    }

    /** The top-level argument members whose values the policy reads: the thread, mode and path fields. */
    public Set<String> readFields() {
        Set<String> fields = new LinkedHashSet<>(threadFields);
        fields.addAll(modeFields.values());
        fields.addAll(pathFields);
        return fields;
    }

    /**
     * The target threads a call of this row names: the string values of its {@link #threadFields} in the arguments,
     * in field order (what the PIP looks shells up for). A value that is not a string, or one longer than the
     * schema admits (which the decision input does not carry either, {@link ArgumentEnvelope#admits}), is no thread
     * id; the schema check reports it.
     *
     * @param arguments the arguments as received; anything but an object names no thread
     * @param envelope  the tool's envelope, which knows how long a value its schema admits
     */
    public List<String> threadIds(Object arguments, ArgumentEnvelope envelope) {
        List<String> ids = new ArrayList<>();
        if (arguments instanceof Map<?, ?> members) {
            for (String field : threadFields) {
                if (members.get(field) instanceof String id && envelope.admits(field, id)) {
                    ids.add(id);
                }
            }
        }
        return ids;
    }
}
