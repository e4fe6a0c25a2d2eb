package dev.gatehouse.gateway.console;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.uri.QueryStringDecoder;

/**
 * The console's CSRF token counts only in the form body: a change whose query string names {@code csrf} is 403 and
 * nothing is done. The servlet container merges query and form parameters into one map, so without this a token
 * in the URL (where logs, history and referrers keep it) was taken like the form's.
 */
@ServerFilter("/console/**")
public class CsrfFromFormFilter {

    /** 403 before the route, for a change with {@code csrf} in its query string; nothing otherwise. */
    @RequestFilter
    @Nullable
    public HttpResponse<?> refuseTokenInQuery(HttpRequest<?> request) {
        if (request.getMethod() == HttpMethod.GET || request.getMethod() == HttpMethod.HEAD) {
            return null;
        }
        String query = request.getUri().getRawQuery();
        if (query == null || !new QueryStringDecoder("?" + query).parameters().containsKey(ConsolePages.CSRF_FIELD)) {
            return null;
        }
        return ConsolePages.refused(HttpStatus.FORBIDDEN, "Refused", "The CSRF token is read from the form only, never"
                + " from the address. Nothing was changed. Reload the page and use its form.");
    }
}
