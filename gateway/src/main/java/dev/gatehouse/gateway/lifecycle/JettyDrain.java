package dev.gatehouse.gateway.lifecycle;

import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import jakarta.inject.Singleton;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.component.LifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drains {@code /mcp} when the Jetty server is asked to stop, before its connectors close: Micronaut stops the
 * server before it publishes its shutdown events, so the drain hangs on Jetty's own "stopping" notice, which runs
 * on the stopping thread ahead of the stop itself. While it waits (at most {@code gatehouse.drain.deadline}),
 * connections are still accepted and new requests get 503 with {@code Retry-After}; then Jetty stops.
 */
@Singleton
public class JettyDrain implements BeanCreatedEventListener<Server> {

    private static final Logger LOG = LoggerFactory.getLogger(JettyDrain.class);

    private final CallTracker calls;
    private final DrainProperties properties;

    public JettyDrain(CallTracker calls, DrainProperties properties) {
        this.calls = calls;
        this.properties = properties;
    }

    @Override
    public Server onCreated(BeanCreatedEvent<Server> event) {
        Server server = event.getBean();
        server.addEventListener(new LifeCycle.Listener() {
            @Override
            public void lifeCycleStopping(LifeCycle lifeCycle) {
                drain();
            }
        });
        return server;
    }

    /** Refuses new {@code /mcp} requests and waits for those in flight, up to the deadline. */
    void drain() {
        LOG.info("draining /mcp: {} request(s) in flight, waiting up to {}", calls.inFlight(), properties.getDeadline());
        int left = calls.drain(properties.getDeadline());
        if (left > 0) {
            LOG.warn("drain deadline {} passed with {} /mcp request(s) still in flight; stopping anyway",
                    properties.getDeadline(), left);
        } else {
            LOG.info("drained /mcp; stopping the server");
        }
    }
}
