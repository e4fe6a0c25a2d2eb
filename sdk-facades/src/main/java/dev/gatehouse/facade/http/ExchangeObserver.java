package dev.gatehouse.facade.http;

/**
 * Watches every exchange a {@link ServiceClient} makes, for metrics and traces, without the facades knowing either.
 * The gateway supplies one bean; without it nothing is observed. An observer must not throw and must not change the
 * request other than adding trace-context headers (W3C {@code traceparent}/{@code tracestate}).
 */
public interface ExchangeObserver {

    /** Observes nothing. */
    ExchangeObserver NONE = (service, request) -> reply -> { };

    /**
     * Called just before a request is sent (the credential is already set; an observer never reads it).
     *
     * @param service the service name ({@code project}, {@code wiki}, {@code host})
     * @param request the outgoing request; trace-context headers may be added
     * @return what to call once with the reply when the exchange is over
     */
    Exchange start(String service, ServiceRequest request);

    /** One exchange in flight. */
    @FunctionalInterface
    interface Exchange {

        /** The exchange ended with this reply (an answer of any status, a timeout, a refusal, a broken exchange). */
        void end(Reply reply);
    }
}
