package dev.gatehouse.gateway.policy.api;

import dev.gatehouse.gateway.context.TrustedContext;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The facts the PDP decides on (schemas/decision-input.json). Built only by the PEP from the trusted context and
 * the request; serialised to JSON by one mapper in the policy package, never by hand (malformed input JSON would
 * silently evaluate as empty in the Wasm engine).
 *
 * @param tool           the called tool name, as received; empty for tools/list
 * @param arguments      the tool arguments as received (usually a {@code Map}); empty for tools/list
 * @param argumentErrors closed-schema violations found by the PEP; empty list when valid or for tools/list
 * @param caller         the trusted context; only its authorization facts are serialised, never credentials
 * @param targets        shells of the threads named by the row's threadFields, keyed by thread id
 */
public record DecisionInput(Optional<String> tool, Optional<Object> arguments, List<ArgumentError> argumentErrors,
        TrustedContext caller, Map<String, ThreadShell> targets) {

    public DecisionInput {
        Objects.requireNonNull(caller, "caller");
        argumentErrors = List.copyOf(argumentErrors);
        targets = Map.copyOf(targets);
    }

    /** Input for tools/list: the caller only. */
    public static DecisionInput forListing(TrustedContext caller) {
        return new DecisionInput(Optional.empty(), Optional.empty(), List.of(), caller, Map.of());
    }

    /**
     * One closed-schema violation, as a fact for the policy.
     *
     * @param keyword          the JSON Schema keyword that failed (e.g. {@code additionalProperties}, {@code type})
     * @param instanceLocation JSON Pointer to the failing value ({@code ""} for the arguments object)
     * @param property         the offending member name for {@code additionalProperties}/{@code required}
     * @param message          description without argument values
     */
    public record ArgumentError(String keyword, String instanceLocation, Optional<String> property, String message) {
    }

    /**
     * A target thread as the host facade reported it.
     *
     * @param found           false when the lookup failed or the thread does not exist (the policy then denies)
     * @param runtimeMode     the thread's current runtime mode, when found
     * @param interactionMode the thread's current interaction mode, when found
     */
    public record ThreadShell(boolean found, Optional<String> runtimeMode, Optional<String> interactionMode) {

        /** A lookup that failed or found nothing. */
        public static ThreadShell notFound() {
            return new ThreadShell(false, Optional.empty(), Optional.empty());
        }
    }
}
