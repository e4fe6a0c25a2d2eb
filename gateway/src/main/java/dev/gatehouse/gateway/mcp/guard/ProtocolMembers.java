package dev.gatehouse.gateway.mcp.guard;

import dev.gatehouse.facts.ArgumentKeys;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The JSON-RPC 2.0 and MCP member names read at the two protocol levels (the message object and its {@code params}),
 * and what reads as one of them without being spelled so: a look-alike by {@link ArgumentKeys#looksLike} (the fold
 * argument keys are compared by, with its other readings of each character; docs/domain.md §6). The
 * {@link JsonRpcGuard} refuses such names; this class only says which they are.
 */
public final class ProtocolMembers {

    /** The member names whose look-alikes are refused at the protocol levels. */
    public static final List<String> NAMES = List.of("jsonrpc", "method", "params", "id", "name", "arguments",
            "_meta");

    /** The skeleton of each name ({@link ArgumentKeys#skeleton}), what look-alikes are read against. */
    private static final List<String> SKELETONS = skeletons();

    private ProtocolMembers() {
    }

    /** The fold of each name, worked out once: every request's message object and params are made of them. */
    private static final Map<String, String> FOLDS = NAMES.stream()
            .collect(Collectors.toUnmodifiableMap(name -> name, ArgumentKeys::fold));

    /** {@link ArgumentKeys#fold} of a member name at a protocol level, the protocol's own names without folding them. */
    public static String fold(String name) {
        String known = FOLDS.get(name);
        return known != null ? known : ArgumentKeys.fold(name);
    }

    /** A member name that reads as a protocol member name without being spelled exactly so. */
    public static boolean isLookAlike(String name) {
        if (NAMES.contains(name)) {
            return false;
        }
        for (String skeleton : SKELETONS) {
            if (ArgumentKeys.looksLike(name, skeleton)) {
                return true;
            }
        }
        return false;
    }

    /** Fails at class load when two protocol member names would fold alike (the rule could not tell them apart). */
    private static List<String> skeletons() {
        Set<String> skeletons = new HashSet<>();
        for (String name : NAMES) {
            if (!skeletons.add(ArgumentKeys.skeleton(name))) {
                throw new IllegalStateException("two protocol member names fold alike: " + name);
            }
        }
        return List.copyOf(skeletons);
    }
}
