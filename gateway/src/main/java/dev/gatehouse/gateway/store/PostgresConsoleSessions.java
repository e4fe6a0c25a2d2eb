package dev.gatehouse.gateway.store;

import dev.gatehouse.gateway.auth.SessionTokens;
import dev.gatehouse.gateway.console.ConsoleProperties;
import dev.gatehouse.gateway.console.ConsoleSessions;
import io.micronaut.scheduling.annotation.Scheduled;
import jakarta.inject.Singleton;
import java.util.Optional;

/**
 * {@link ConsoleSessions} on the {@code console_session} table (migration V7). Each call is one statement; a lookup is
 * an {@code UPDATE … RETURNING} that both checks the session (not ended, not idle past the timeout, not past its
 * lifetime, by the database's clock) and records the activity. Never cached: a sign-out applies on every replica at
 * the next request.
 */
@Singleton
public class PostgresConsoleSessions implements ConsoleSessions {

    private final Database database;
    private final ConsoleProperties properties;

    public PostgresConsoleSessions(Database database, ConsoleProperties properties) {
        this.database = database;
        this.properties = properties;
    }

    @Override
    public String start(Operator operator) {
        String cookie = SessionTokens.mint();
        database.update("INSERT INTO console_session (id_sha256, subject, issuer, display_name, csrf_token,"
                + " created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?, now(), now(),"
                + " now() + make_interval(secs => ?))", statement -> {
                    statement.setString(1, SessionTokens.hash(cookie));
                    statement.setString(2, operator.subject());
                    statement.setString(3, operator.issuer());
                    statement.setString(4, operator.displayName());
                    statement.setString(5, SessionTokens.mint());
                    statement.setDouble(6, properties.getSessionLifetime().toMillis() / 1000.0);
                });
        return cookie;
    }

    @Override
    public Optional<ConsoleSession> find(String cookieValue) {
        return database.one("UPDATE console_session SET last_seen_at = now() WHERE id_sha256 = ?"
                + " AND ended_at IS NULL AND expires_at > now() AND last_seen_at > now() - make_interval(secs => ?)"
                + " RETURNING subject, issuer, display_name, csrf_token", statement -> {
                    statement.setString(1, SessionTokens.hash(cookieValue));
                    statement.setDouble(2, properties.getIdleTimeout().toMillis() / 1000.0);
                }, row -> new ConsoleSession(new Operator(row.getString("subject"), row.getString("issuer"),
                        row.getString("display_name")), row.getString("csrf_token")));
    }

    @Override
    public void end(String cookieValue) {
        database.update("UPDATE console_session SET ended_at = now() WHERE id_sha256 = ? AND ended_at IS NULL",
                statement -> statement.setString(1, SessionTokens.hash(cookieValue)));
    }

    /** Removes sessions that ended more than a day ago, so the table does not grow without bound. */
    @Scheduled(fixedDelay = "1h", initialDelay = "1m")
    void forgetEnded() {
        try {
            database.update("DELETE FROM console_session WHERE coalesce(ended_at, expires_at)"
                    + " < now() - interval '1 day'", statement -> {
                    });
        } catch (StoreUnavailableException e) {
            // Tried again at the next run.
        }
    }
}
