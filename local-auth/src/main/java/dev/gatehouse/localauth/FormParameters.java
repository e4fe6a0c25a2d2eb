package dev.gatehouse.localauth;

import com.nimbusds.oauth2.sdk.util.URLUtils;
import java.util.List;
import java.util.Map;
import no.nav.security.mock.oauth2.http.OAuth2HttpRequest;

/**
 * A request's form parameters with every value kept (the library's own view keeps one value per name, so a second
 * {@code resource} or {@code claims} could slip past a check of the first).
 */
final class FormParameters {

    private FormParameters() {
    }

    /** Name → all its values, from an {@code application/x-www-form-urlencoded} body; empty when there is none. */
    static Map<String, List<String>> of(OAuth2HttpRequest request) {
        String body = request.getBody();
        return body == null ? Map.of() : URLUtils.parseParameters(body);
    }
}
