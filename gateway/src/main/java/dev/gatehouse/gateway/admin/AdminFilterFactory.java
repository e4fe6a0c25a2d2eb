package dev.gatehouse.gateway.admin;

import io.micronaut.context.annotation.Factory;
import io.micronaut.http.HttpMethod;
import io.micronaut.servlet.api.annotation.ServletFilterBean;
import io.micronaut.web.router.Router;
import jakarta.inject.Singleton;
import jakarta.servlet.Filter;

/** Mounts {@link AdminCredentialFilter} on {@code /admin/*} with the servlet container. */
@Factory
public class AdminFilterFactory {

    @Singleton
    @ServletFilterBean(filterName = "admin-credential", urlPatterns = "/admin/*")
    public Filter adminCredentialFilter(AdminProperties properties, Router router) {
        // Whether a route answers this method and path: only such a request's body is the route's to type-check.
        return new AdminCredentialFilter(properties, request -> router.find(HttpMethod.parse(request.getMethod()),
                request.getRequestURI(), null).findAny().isPresent());
    }
}
