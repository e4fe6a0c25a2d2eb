package dev.gatehouse.gateway.context;

/**
 * {@link AgentDirectory#register} was asked for a logical agent id another issuer and subject are registered under.
 * A registration carries its own settings (docs/domain.md §1), so two registrations never act as one agent: the store
 * keeps the id unique, also against concurrent writers, and nothing of the refused registration was written.
 */
public class AgentIdTakenException extends RuntimeException {

    public AgentIdTakenException(Throwable cause) {
        super("the logical agent id is another registration's", cause);
    }
}
