package dev.gatehouse.gateway.admin;

import io.micronaut.context.annotation.Factory;
import io.micronaut.servlet.api.annotation.ServletFilterBean;
import jakarta.inject.Singleton;
import jakarta.servlet.Filter;

/** Mounts {@link AdminCredentialFilter} on {@code /admin/*} with the servlet container. */
@Factory
public class AdminFilterFactory {

    @Singleton
    @ServletFilterBean(filterName = "admin-credential", urlPatterns = "/admin/*")
    public Filter adminCredentialFilter(AdminProperties properties) {
        return new AdminCredentialFilter(properties);
    }
}
