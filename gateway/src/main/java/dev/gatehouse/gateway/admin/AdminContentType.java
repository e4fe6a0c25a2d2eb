package dev.gatehouse.gateway.admin;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The media type of an admin request body. Every admin route that takes a body ({@code POST} and {@code PUT}) reads
 * JSON in UTF-8 ({@link AdminBodies}), so its one {@code Content-Type} must say so: {@code application/json}, with no
 * parameter but an optional {@code charset=utf-8} (RFC 8259 §8.1), in any case (RFC 9110 §8.3.1), written as
 * {@code application/json;charset=utf-8} or {@code application/json; charset=utf-8}, the forms clients send and
 * Micronaut's route matching reads as JSON (it takes a blank before {@code ;} as part of the type). Any other type
 * ({@code text/plain}, a form, {@code application/*}), another charset, form of it or parameter, none at all, or two
 * {@code Content-Type} headers is answered 415
 * {@code {"error":"unsupported_media_type","message"}} before the body is read (with {@code Connection: close}, as
 * {@link BoundedAdminBody} refuses), where a JSON body sent as {@code text/plain} or with no type was read all the
 * same.
 */
final class AdminContentType {

    /** The methods of the admin routes that take a body. */
    private static final Set<String> WITH_BODY = Set.of("POST", "PUT");

    /** {@code application/json}, then at most {@code ;charset=utf-8}, a blank or tab allowed after the {@code ;}. */
    private static final Pattern JSON_UTF8 = Pattern.compile("application/json(?:;[ \\t]*charset=utf-8)?",
            Pattern.CASE_INSENSITIVE);

    /** What the 415 says: what is accepted. */
    static final String MESSAGE = "The request body must be sent as JSON in UTF-8: one Content-Type: application/json,"
            + " or application/json; charset=utf-8.";

    private AdminContentType() {
    }

    /**
     * Whether the request may go on; when not, its 415 answer was written here.
     *
     * @throws IOException when the answer cannot be written
     */
    static boolean check(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!WITH_BODY.contains(request.getMethod())
                || accepted(Collections.list(request.getHeaders("Content-Type")))) {
            return true;
        }
        BoundedAdminBody.refuse(response, HttpServletResponse.SC_UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type",
                MESSAGE);
        return false;
    }

    /** Whether these {@code Content-Type} header values are one that declares JSON in UTF-8. */
    static boolean accepted(List<String> contentTypes) {
        return contentTypes.size() == 1 && JSON_UTF8.matcher(contentTypes.get(0).strip()).matches();
    }
}
