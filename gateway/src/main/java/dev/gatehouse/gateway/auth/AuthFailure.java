package dev.gatehouse.gateway.auth;

/**
 * Why a request to {@code /mcp} is unauthenticated (HTTP 401), with the RFC 6750 error code sent in
 * {@code WWW-Authenticate}. Which check failed is never revealed beyond this code.
 */
public enum AuthFailure {
    /** No bearer credential: RFC 6750 §3.1 says to send no error code. */
    MISSING_CREDENTIAL(""),
    /** Unknown, revoked, expired, wrongly signed or wrongly addressed token. */
    INVALID_TOKEN("invalid_token");

    private final String errorCode;

    AuthFailure(String errorCode) {
        this.errorCode = errorCode;
    }

    /** The RFC 6750 {@code error} value; empty when none is sent. */
    public String errorCode() {
        return errorCode;
    }
}
