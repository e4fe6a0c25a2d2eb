package dev.gatehouse.gateway.auth;

/**
 * Why a request to {@code /mcp} is refused before anything else reads it, with the HTTP status and the RFC 6750
 * error code sent in {@code WWW-Authenticate}. Which check failed is never revealed beyond this code.
 */
public enum AuthFailure {
    /** No bearer credential: RFC 6750 §3.1 says to send no error code. */
    MISSING_CREDENTIAL(401, "", "unauthorized"),
    /** Unknown, revoked, expired, wrongly signed or wrongly addressed token. */
    INVALID_TOKEN(401, "invalid_token", "unauthorized"),
    /**
     * A valid access token for this gateway that lacks the configured scope: HTTP 403 (RFC 6750 §3.1; the MCP
     * authorization spec's step-up), so the client asks for the scope the challenge names instead of a new token.
     */
    INSUFFICIENT_SCOPE(403, "insufficient_scope", "insufficient scope");

    private final int status;
    private final String errorCode;
    private final String message;

    AuthFailure(int status, String errorCode, String message) {
        this.status = status;
        this.errorCode = errorCode;
        this.message = message;
    }

    /** The fixed JSON-RPC error message of the refusal. */
    public String message() {
        return message;
    }

    /** The HTTP status of the refusal: 401, or 403 for {@link #INSUFFICIENT_SCOPE}. */
    public int status() {
        return status;
    }

    /** The RFC 6750 {@code error} value; empty when none is sent. */
    public String errorCode() {
        return errorCode;
    }
}
