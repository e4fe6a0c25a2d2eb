package dev.gatehouse.gateway.policy.api;

/**
 * Why the PDP could not decide. Codes are stable and double as metric labels; the detail is for the log and the
 * health endpoint, never for the agent.
 *
 * @param code   one of the constants below
 * @param detail operator-facing explanation (no secrets, no decision input)
 */
public record PolicyFault(String code, String detail) {

    /** No bundle could be loaded (missing file, unreadable, failed self-test at start-up). */
    public static final String BUNDLE_UNAVAILABLE = "bundle_unavailable";
    /** The engine raised an error while evaluating. */
    public static final String EVALUATION_ERROR = "evaluation_error";
    /** The result was undefined ({@code []} from Wasm, no {@code result} from OPA's REST API). */
    public static final String UNDEFINED = "undefined";
    /** The result had another shape than schemas/decision.json (e.g. {@code "allow": "true"}). */
    public static final String MALFORMED_RESULT = "malformed_result";
    /** The remote PDP did not answer within its deadline, or could not be reached. */
    public static final String TIMEOUT = "timeout";
    /** The remote PDP answered from another revision than the one whose contents the call used. */
    public static final String REVISION_CHANGED = "revision_changed";
    /** No engine instance became free within the wait limit. */
    public static final String BUSY = "busy";
}
