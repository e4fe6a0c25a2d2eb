package dev.gatehouse.gateway.console;

import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Produces;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * {@code GET /console/static/console.css}: the console's one stylesheet (the Content-Security-Policy admits styles
 * from here only), read once from the jar. Public, like the sign-in page.
 */
@Controller("/console/static")
public class StylesheetController {

    private final byte[] stylesheet;

    public StylesheetController() {
        try (InputStream in = StylesheetController.class.getResourceAsStream("/console-static/console.css")) {
            // the review library's matrix and diff fragments (the policy page) carry its stylesheet's rules
            this.stylesheet = (new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8) + "\n"
                    + dev.gatehouse.review.Html.css()).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("the console's stylesheet is part of the jar", e);
        }
    }

    @Get("/console.css")
    @Produces("text/css")
    public HttpResponse<byte[]> stylesheet() {
        return HttpResponse.ok(stylesheet).header("Cache-Control", "public, max-age=300");
    }
}
