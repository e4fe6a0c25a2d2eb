package dev.gatehouse.gateway.decisions;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * One search of the decision index, already checked (admin.DecisionQueries): decisions with
 * {@code from <= timestamp < to}, newest first, matching every filter given.
 *
 * @param from       the range's start, inclusive
 * @param to         the range's end, exclusive
 * @param agent      the caller's logical agent id, exactly
 * @param callerKind {@code thread}, {@code outside_agent} or {@code project_notice}
 * @param tool       the called name, exactly
 * @param outcome    how it ended
 * @param reason     a reason code it carries
 * @param revision   the bundle revision that decided, exactly
 * @param method     {@code tools/call}, {@code tools/list} or {@code notice}
 * @param limit      decisions per page
 * @param after      where the previous page stopped: only decisions older than it
 */
public record DecisionQuery(Instant from, Instant to, Optional<String> agent, Optional<String> callerKind,
        Optional<String> tool, Optional<Outcome> outcome, Optional<String> reason, Optional<String> revision,
        Optional<String> method, int limit, Optional<Cursor> after) {

    public DecisionQuery {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
    }

    /** The same search from its first page. */
    public DecisionQuery first() {
        return new DecisionQuery(from, to, agent, callerKind, tool, outcome, reason, revision, method, limit,
                Optional.empty());
    }

    /** The same search after {@code cursor}, {@code limit} at a time. */
    public DecisionQuery after(Cursor cursor, int pageSize) {
        return new DecisionQuery(from, to, agent, callerKind, tool, outcome, reason, revision, method, pageSize,
                Optional.of(cursor));
    }

    /**
     * A place in the newest-first order: decisions before it are older, or as old with a smaller id. Written as an
     * opaque token ({@link #token()}) for the {@code cursor} parameter.
     *
     * @param at the decision's time, to the microsecond (as the index stores it)
     * @param id the decision's id
     */
    public record Cursor(Instant at, UUID id) {

        public Cursor {
            at = at.truncatedTo(ChronoUnit.MICROS);
            Objects.requireNonNull(id, "id");
        }

        /** URL-safe base64 of {@code <epoch microseconds>:<id>}. */
        public String token() {
            long micros = ChronoUnit.MICROS.between(Instant.EPOCH, at);
            return Base64.getUrlEncoder().withoutPadding().encodeToString((micros + ":" + id)
                    .getBytes(StandardCharsets.US_ASCII));
        }

        /** The cursor a token names, or empty when it is not one. */
        public static Optional<Cursor> parse(String token) {
            try {
                String text = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.US_ASCII);
                int colon = text.indexOf(':');
                if (colon <= 0 || !text.substring(0, colon).matches("-?[0-9]{1,19}")) {
                    return Optional.empty();
                }
                UUID id = UUID.fromString(text.substring(colon + 1));
                if (!id.toString().equals(text.substring(colon + 1))) {
                    return Optional.empty();
                }
                return Optional.of(new Cursor(Instant.EPOCH.plus(Long.parseLong(text.substring(0, colon)),
                        ChronoUnit.MICROS), id));
            } catch (IllegalArgumentException | ArithmeticException | java.time.DateTimeException e) {
                return Optional.empty();
            }
        }
    }
}
