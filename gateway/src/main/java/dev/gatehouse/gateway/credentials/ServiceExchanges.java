package dev.gatehouse.gateway.credentials;

import dev.gatehouse.facade.http.ExchangeObserver;
import dev.gatehouse.facade.http.Reply;
import dev.gatehouse.facade.http.ServiceRequest;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Remembers, per service, the outcome of the last exchange this replica made and when, and when the service last
 * refused the credential (HTTP 401), from every exchange the facades report ({@link ExchangeObserver}). What the
 * console's service clients page and {@code /health} show; it decides nothing and never deletes anything.
 */
@Singleton
public class ServiceExchanges implements ExchangeObserver {

    /**
     * @param outcome the last exchange: {@code 2xx}…{@code 5xx}, {@code timeout}, {@code refused}, {@code broken}
     * @param at      when it ended
     */
    public record Last(String outcome, Instant at) {
    }

    private final Clock clock;
    private final Map<String, Last> last = new ConcurrentHashMap<>();
    private final Map<String, Instant> authenticationFailures = new ConcurrentHashMap<>();

    public ServiceExchanges() {
        this(Clock.systemUTC());
    }

    ServiceExchanges(Clock clock) {
        this.clock = clock;
    }

    @Override
    public Exchange start(String service, ServiceRequest request) {
        return reply -> {
            Instant now = clock.instant();
            last.put(service, new Last(outcome(reply), now));
            if (reply instanceof Reply.Answered answered && answered.status() == 401) {
                authenticationFailures.put(service, now);
            }
        };
    }

    /** The last exchange with {@code service}, if any since start. */
    public Optional<Last> last(String service) {
        return Optional.ofNullable(last.get(service));
    }

    /** When {@code service} last answered 401 to this replica, if ever since start. */
    public Optional<Instant> lastAuthenticationFailure(String service) {
        return Optional.ofNullable(authenticationFailures.get(service));
    }

    /** Whether the credential is failing now: the last exchange was refused with 401. */
    public boolean failing(String service) {
        return last(service).map(l -> l.outcome().equals("401")).orElse(false);
    }

    private static String outcome(Reply reply) {
        if (reply instanceof Reply.Answered answered) {
            return answered.status() == 401 || answered.status() == 403 ? String.valueOf(answered.status())
                    : (answered.status() / 100) + "xx";
        }
        if (reply instanceof Reply.TimedOut) {
            return "timeout";
        }
        return reply instanceof Reply.Refused ? "refused" : "broken";
    }
}
