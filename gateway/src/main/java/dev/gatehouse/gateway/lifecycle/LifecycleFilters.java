package dev.gatehouse.gateway.lifecycle;

import dev.gatehouse.gateway.store.Database;
import io.micronaut.context.annotation.Factory;
import io.micronaut.core.annotation.Order;
import io.micronaut.core.order.Ordered;
import io.micronaut.servlet.api.annotation.ServletFilterBean;
import jakarta.inject.Singleton;

/**
 * Mounts {@link QueryStringFilter} and {@link StoreBudgetFilter} on every path with the servlet container, and
 * {@link ClientGoneFilter} on the decision exports. Each method
 * returns the filter's own type:
 * the container registers a filter bean under its type's name, and {@code jakarta.servlet.Filter} is taken. It
 * supports asynchronous requests, as every filter in front of the MCP servlet must (its SDK transports use them).
 */
@Factory
public class LifecycleFilters {

    @Singleton
    @ServletFilterBean(filterName = "store-budget", urlPatterns = "/*", asyncSupported = true)
    public StoreBudgetFilter storeBudgetFilter(Database database) {
        return new StoreBudgetFilter(database);
    }

    @Singleton
    @ServletFilterBean(filterName = "client-gone", urlPatterns = {"/admin/decisions/export",
        "/console/decisions/export"}, asyncSupported = true)
    public ClientGoneFilter clientGoneFilter() {
        return new ClientGoneFilter();
    }

    @Singleton
    @Order(Ordered.HIGHEST_PRECEDENCE)
    @ServletFilterBean(filterName = "query-string", urlPatterns = "/*", asyncSupported = true)
    public QueryStringFilter queryStringFilter() {
        return new QueryStringFilter();
    }
}
