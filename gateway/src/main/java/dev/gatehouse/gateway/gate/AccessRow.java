package dev.gatehouse.gateway.gate;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One row of the access table (policies/gatehouse/access_table/data.json, schemas/access-table.json) as the PEP
 * needs it. The policy reads the same row to decide; Java reads it only to register the tool and to know which
 * argument fields name target threads, whose shells the PIP must look up (DESIGN.md, Decision contract).
 *
 * @param toolkit      {@code thread|project|wiki}
 * @param accessClass  the access class (DOMAIN.md §3)
 * @param capability   the capability the row needs, if any (DOMAIN.md §4)
 * @param threadFields argument fields naming target threads
 * @param modeFields   axis → argument field requesting a mode on that axis
 * @param wikiPathField the argument holding a wiki path, for rows whose allowed calls carry a resolved wiki path
 */
public record AccessRow(String toolkit, String accessClass, Optional<String> capability, List<String> threadFields,
        Map<String, String> modeFields, Optional<String> wikiPathField) {

    public AccessRow {
        Objects.requireNonNull(toolkit, "toolkit");
        Objects.requireNonNull(accessClass, "accessClass");
        Objects.requireNonNull(capability, "capability");
        threadFields = List.copyOf(threadFields);
        modeFields = Map.copyOf(modeFields);
        Objects.requireNonNull(wikiPathField, "wikiPathField");
    }
}
