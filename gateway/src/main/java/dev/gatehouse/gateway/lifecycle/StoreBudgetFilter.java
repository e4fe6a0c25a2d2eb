package dev.gatehouse.gateway.lifecycle;

import dev.gatehouse.gateway.store.Database;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import java.io.IOException;

/**
 * Gives every request its store budget ({@link Database#requestBudget}) for as long as its thread serves it: all the
 * store calls of one request ({@code /mcp} in both eras, the admin API, the probes, the metrics scrape) together end
 * within {@code gatehouse.database.deadline}, however many lookups it needs, so a stalled or slow PostgreSQL holds no
 * request, and no container thread, longer than that.
 */
public final class StoreBudgetFilter implements Filter {

    private final Database database;

    StoreBudgetFilter(Database database) {
        this.database = database;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        try (Database.Budget ignored = database.requestBudget()) {
            chain.doFilter(request, response);
        }
    }
}
