package dev.gatehouse.gateway.policy;

/**
 * The entry points the gateway evaluates: the rules of policies/decision/decision.rego annotated
 * {@code entrypoint: true}, which {@code opa build} exports from the annotations. A revision that lacks one is not
 * activated. The two the gate asks, the revision's enforcement document, the held capabilities of the admin read API,
 * and the notice delivery decision.
 * The path is the OPA data path with {@code /} separators, as used by Wasm entrypoint names, OPA's REST Data API
 * ({@code /v1/data/<path>}) and the decision log's {@code path} field.
 */
public enum Entrypoint {
    /** One tools/call: {@code {allow, reasons, obligations}} (schemas/decision.json). */
    DECISION("gatehouse/authz/decision"),
    /** tools/list: the sorted names the caller may call (array of strings). */
    VISIBLE_TOOLS("gatehouse/authz/visible_tools"),
    /** What the PEP reads from the revision: {@code {accessTable, toolSchemas, reasons}} ({@link EnforcementDocument}). */
    ENFORCEMENT("gatehouse/authz/enforcement"),
    /** The sorted capability scopes the input's caller holds (array of strings). */
    HELD_CAPABILITIES("gatehouse/authz/held_capabilities"),
    /** One Project Work notice: {@code {allow, reasons, obligations}}, the {@code modes} of a thread to create. */
    NOTICE("gatehouse/authz/notice");

    private final String path;

    Entrypoint(String path) {
        this.path = path;
    }

    /** The data path, e.g. {@code gatehouse/authz/decision}. */
    public String path() {
        return path;
    }

    /** The entry point whose data path is {@code path}, if there is one. */
    public static java.util.Optional<Entrypoint> ofPath(String path) {
        return java.util.Arrays.stream(values()).filter(e -> e.path.equals(path)).findFirst();
    }

    /** The Rego reference of this entrypoint, e.g. {@code data.gatehouse.authz.decision} (for {@code opa eval}). */
    public String query() {
        return "data." + path.replace('/', '.');
    }
}
