package dev.gatehouse.local.wiki;

import dev.gatehouse.local.http.ApiException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A validated wiki path such as {@code agents/a1/notes/page.md}: segments separated by {@code /}, each of letters
 * and digits of any script, {@code -}, {@code _}, {@code .} and inner spaces, not {@code .}/{@code ..}, not ending
 * with {@code .}, at most {@link #MAX_SEGMENT_BYTES} bytes of UTF-8 each (docs/domain.md §7). The gateway already
 * confines paths; the service checks again as defence in depth.
 */
public record WikiPath(List<String> segments) {

    /**
     * The longest segment, in bytes of UTF-8: what a file name can hold (255 bytes) less the page's revision record
     * suffix. The policy's {@code data.gatehouse.wiki.limits.maxSegmentBytes} is this same number (a test compares
     * them), so every segment the policy admits can be stored.
     */
    public static final int MAX_SEGMENT_BYTES = WikiStore.MAX_NAME_BYTES - WikiStore.REVISION_SUFFIX_BYTES;

    /** Segments below an agent's subtree ({@code data.gatehouse.wiki.limits.maxSegments}). */
    public static final int MAX_RELATIVE_SEGMENTS = 32;

    /** The two top-level folders of agents' subtrees, by caller kind ({@code data.gatehouse.wiki.roots}). */
    public static final String THREAD_AGENTS = "agents";
    public static final String OUTSIDE_AGENTS = "outside-agents";

    private static final String OUTSIDE_PREFIX = "oa-";
    private static final Pattern SEGMENT = Pattern.compile("[\\p{L}\\p{N}_.-]([\\p{L}\\p{N}_. -]*[\\p{L}\\p{N}_-])?");
    private static final int MAX_SEGMENTS = MAX_RELATIVE_SEGMENTS + 2;

    public WikiPath {
        segments = List.copyOf(segments);
    }

    /**
     * Parses {@code raw}.
     *
     * @throws ApiException 400 {@code path_invalid} when any segment breaks the rules above
     */
    public static WikiPath parse(String raw) {
        if (raw == null || raw.isEmpty()) {
            throw invalid();
        }
        String[] parts = raw.split("/", -1);
        if (parts.length > MAX_SEGMENTS) {
            throw invalid();
        }
        for (String part : parts) {
            if (part.getBytes(StandardCharsets.UTF_8).length > MAX_SEGMENT_BYTES || part.equals(".") || part.equals("..")
                    || !SEGMENT.matcher(part).matches()) {
                throw invalid();
            }
        }
        return new WikiPath(List.of(parts));
    }

    /**
     * This path, if it lies in {@code agents/<agentId>} (segment by segment, the subtree itself included).
     *
     * @throws ApiException 400 {@code path_escape} otherwise
     */
    public WikiPath within(String agentId) {
        return within(agentId, THREAD_AGENTS + "/" + agentId);
    }

    /**
     * This path, if it lies in {@code root} (segment by segment, the subtree itself included), where {@code root} is
     * a subtree {@code agentId} may use: its own {@code outside-agents/<agentId>} for an outside agent ({@code oa-}
     * ids), its own {@code agents/<agentId>} for a thread agent, or a thread agent's {@code agents/<other>} that an
     * outside agent's registration shares (the gateway's policy admitted it).
     *
     * @throws ApiException 400 {@code path_escape} otherwise
     */
    public WikiPath within(String agentId, String root) {
        List<String> rootSegments = List.of(root.split("/", -1));
        boolean outside = agentId.startsWith(OUTSIDE_PREFIX);
        boolean usable = rootSegments.size() == 2 && (outside
                ? rootSegments.get(0).equals(OUTSIDE_AGENTS) && rootSegments.get(1).equals(agentId)
                        || rootSegments.get(0).equals(THREAD_AGENTS) && !rootSegments.get(1).startsWith(OUTSIDE_PREFIX)
                : rootSegments.get(0).equals(THREAD_AGENTS) && rootSegments.get(1).equals(agentId));
        if (!usable || segments.size() < 2 || !segments.subList(0, 2).equals(rootSegments)) {
            throw ApiException.badRequest("path_escape", "the path is outside the agent's subtree");
        }
        return this;
    }

    /** The path as sent on the wire. */
    public String wire() {
        return String.join("/", segments);
    }

    private static ApiException invalid() {
        return ApiException.badRequest("path_invalid", "not a valid wiki path");
    }
}
