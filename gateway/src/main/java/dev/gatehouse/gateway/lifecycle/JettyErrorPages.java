package dev.gatehouse.gateway.lifecycle;

import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import jakarta.inject.Singleton;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.ContextHandler;

/**
 * Gives the Jetty server and each of its contexts a {@link JsonErrorHandler}, so whatever fails below the application
 * (a request Jetty refuses, an exception that escapes a servlet) is answered as small JSON, never as a page with a
 * stack trace, the servlet's name or the Jetty version.
 */
@Singleton
public class JettyErrorPages implements BeanCreatedEventListener<Server> {

    @Override
    public Server onCreated(BeanCreatedEvent<Server> event) {
        Server server = event.getBean();
        server.setErrorHandler(new JsonErrorHandler());
        for (var handler : server.getChildHandlersByClass(ContextHandler.class)) {
            ContextHandler context = (ContextHandler) handler;
            context.setErrorHandler(new JsonErrorHandler());
        }
        return server;
    }
}
