package dev.gatehouse.gateway.admin.audit;

import java.time.Instant;

/**
 * One audited change as stored.
 *
 * @param id     increasing with time of commit order within one database; newer entries have larger ids
 * @param at     when the change was committed (the database's clock)
 * @param actor  who made it
 * @param change what it did
 */
public record AuditEntry(long id, Instant at, Actor actor, Change change) {
}
