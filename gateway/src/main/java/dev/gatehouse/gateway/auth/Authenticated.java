package dev.gatehouse.gateway.auth;

import java.util.Objects;

/**
 * Who presented a valid credential at {@code /mcp}. The kind is set by the authenticator that accepted the
 * credential, never by anything in the request body or other headers.
 */
public sealed interface Authenticated {

    /**
     * A stable key for this principal, used to bind handshake-era {@code Mcp-Session-Id}s to the caller that
     * initialized them. Never logged with the credential.
     */
    String bindingKey();

    /** A thread caller holding a session token. */
    record ThreadCaller(AgentSession session) implements Authenticated {
        public ThreadCaller {
            Objects.requireNonNull(session, "session");
        }

        @Override
        public String bindingKey() {
            return bindingKeyOf(session.sessionId());
        }

        /** The binding key of the thread session {@code sessionId}. */
        public static String bindingKeyOf(String sessionId) {
            return "session:" + sessionId;
        }
    }

    /**
     * An outside agent holding a valid OAuth 2.1 access token.
     *
     * @param issuer  the token's {@code iss}
     * @param subject the token's {@code sub}; the agent id for settings and the wiki subtree
     * @param ceiling the approved ceiling claim exactly as the token carries it (well-formed; judged by the policy)
     */
    record OutsideAgent(String issuer, String subject, String ceiling) implements Authenticated {
        public OutsideAgent {
            Objects.requireNonNull(issuer, "issuer");
            Objects.requireNonNull(subject, "subject");
            Objects.requireNonNull(ceiling, "ceiling");
        }

        @Override
        public String bindingKey() {
            return "oauth:" + issuer + "|" + subject;
        }
    }
}
