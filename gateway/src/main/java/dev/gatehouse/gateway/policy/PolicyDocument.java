package dev.gatehouse.gateway.policy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * A policy document the admin read API shows (the access table, a caller's held scopes), as the policy returned it.
 *
 * @param value    the document's value
 * @param revision the bundle revision that answered
 */
public record PolicyDocument(JsonNode value, String revision) {

    public PolicyDocument {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(revision, "revision");
    }
}
