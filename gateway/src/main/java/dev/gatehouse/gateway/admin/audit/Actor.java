package dev.gatehouse.gateway.admin.audit;

import java.util.Objects;

/**
 * Who made an admin change: an operator signed in to the console (their OIDC subject) or a holder of the admin API's
 * bearer credential (which names nobody, so it is recorded as {@link #ADMIN_API}).
 *
 * @param kind    how they authenticated
 * @param subject the operator's subject, or {@code admin-credential}
 */
public record Actor(Kind kind, String subject) {

    /** Any caller of the admin API with its credential. */
    public static final Actor ADMIN_API = new Actor(Kind.ADMIN_API, "admin-credential");

    public Actor {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(subject, "subject");
    }

    /** An operator signed in to the console. */
    public static Actor operator(String subject) {
        return new Actor(Kind.OPERATOR, subject);
    }

    /** How an actor authenticated, as stored ({@code operator}, {@code admin_api}). */
    public enum Kind {
        OPERATOR("operator"), ADMIN_API("admin_api");

        private final String wire;

        Kind(String wire) {
            this.wire = wire;
        }

        public String wire() {
            return wire;
        }

        public static Kind ofWire(String wire) {
            return wire.equals(OPERATOR.wire) ? OPERATOR : ADMIN_API;
        }
    }
}
