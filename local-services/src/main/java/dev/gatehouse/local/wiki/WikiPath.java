package dev.gatehouse.local.wiki;

import dev.gatehouse.local.http.ApiException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A validated wiki path such as {@code agents/a1/notes/page.md}: segments separated by {@code /}, each of letters
 * and digits of any script, {@code -}, {@code _}, {@code .} and inner spaces, not {@code .}/{@code ..}, not ending
 * with {@code .} (docs/domain.md §7). The gateway already confines paths; the service checks again as defence in depth.
 */
public record WikiPath(List<String> segments) {

    private static final Pattern SEGMENT = Pattern.compile("[\\p{L}\\p{N}_.-]([\\p{L}\\p{N}_. -]*[\\p{L}\\p{N}_-])?");
    private static final int MAX_SEGMENTS = 40;
    private static final int MAX_SEGMENT_LENGTH = 256;

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
            if (part.codePointCount(0, part.length()) > MAX_SEGMENT_LENGTH || part.equals(".") || part.equals("..")
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
        if (segments.size() < 2 || !segments.get(0).equals("agents") || !segments.get(1).equals(agentId)) {
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
