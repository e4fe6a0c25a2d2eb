package dev.gatehouse.gateway.admin;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;

/**
 * One service client of this environment as operators see it ({@code GET /admin/service-clients}, the console's
 * service clients page). Never the credential itself.
 *
 * @param service                   {@code project}, {@code wiki} or {@code host}
 * @param url                       where it is reached; {@code null} when the integration is off
 * @param credentialSource          the credential in use: {@code stored} (entered through the console or the API,
 *                                  sealed in the shared store), {@code unreadable} (stored, but it does not open with
 *                                  the configured key: the configured one is used), {@code file}, {@code value} or
 *                                  {@code none}
 * @param state                     {@code works} (last exchange answered, not 401/403), {@code failing} (last
 *                                  exchange answered 401), {@code unknown} (no exchange since start, or the last one
 *                                  did not reach an answer), as this replica saw it
 * @param lastOutcome               the last exchange's outcome ({@code 2xx}, {@code 401}, {@code timeout} …)
 * @param lastExchangeAt            when it ended (ISO-8601)
 * @param lastAuthenticationFailure when the service last answered 401 to this replica (ISO-8601)
 * @param changedAt                 when the credential in use was last changed: the stored one's time, or the
 *                                  credential file's modification time
 * @param storedVersion             the stored credential's version, when one is stored
 */
@Serdeable
public record ServiceClientView(String service, @Nullable String url, String credentialSource, String state,
        @Nullable String lastOutcome, @Nullable String lastExchangeAt, @Nullable String lastAuthenticationFailure,
        @Nullable String changedAt, @Nullable Long storedVersion) {
}
