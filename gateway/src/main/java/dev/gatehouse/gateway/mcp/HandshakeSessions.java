package dev.gatehouse.gateway.mcp;

/**
 * Binds each handshake-era {@code Mcp-Session-Id} to the caller that initialized it and to the replica whose SDK holds
 * the session. The SDK issues the id; the front servlet records the binding from the initialize response and checks
 * it on every later request, so a session id is useless to anyone but its owner (the SDK itself binds sessions to
 * nobody), and on any replica but its own (404: the client initializes again, as the Streamable HTTP transport
 * specifies; the handshake era needs sticky routing or re-initialize). Shared by every replica
 * ({@code dev.gatehouse.gateway.store}): revoking a caller ends its handshake sessions everywhere. A binding unused
 * for {@code gatehouse.mcp.session-idle-timeout} is forgotten.
 *
 * <p>Every method may throw {@link dev.gatehouse.gateway.store.StoreUnavailableException}.
 */
public interface HandshakeSessions {

    /** Records that {@code sessionId} was issued on this replica to the principal with {@code bindingKey}. */
    void bind(String sessionId, String bindingKey);

    /** True when {@code sessionId} is bound to {@code bindingKey} on this replica; marks the binding as used. */
    boolean ownedBy(String sessionId, String bindingKey);

    /** How many sessions bound to {@code bindingKey} on this replica are not idle yet. */
    int held(String bindingKey);

    /** Forgets a terminated session. */
    void unbind(String sessionId);

    /** Ends every handshake session of the principal with {@code bindingKey}, on every replica. */
    int endAllOf(String bindingKey);
}
