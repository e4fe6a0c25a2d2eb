package dev.gatehouse.gateway.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.micronaut.context.ApplicationContext;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Migration V14 on a database an older gateway wrote (docs/domain.md §1): registrations that share a logical agent id
 * and settings a removed registration left behind. It must not fail on them: of each shared id the registration
 * written last stays, the others go, leftover outside-agent settings go, thread agents' settings stay, and from then
 * on the store refuses a second registration of an id.
 */
class OutsideAgentMigrationTest {

    private static ApplicationContext context;

    @BeforeAll
    static void start() {
        context = ApplicationContext.run(Map.of("micronaut.server.port", "-1"), "test");
    }

    @AfterAll
    static void stop() {
        context.close();
    }

    @Test
    void duplicatesAndLeftoversOfAnOlderSchemaAreResolvedAndTheIdIsUniqueFromThenOn() throws Exception {
        String url = databaseOfItsOwn();
        flyway(url).target("13").load().migrate();
        try (Connection connection = DriverManager.getConnection(url, "postgres", "");
                Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO outside_agent (issuer, subject, logical_agent_id, updated_at) VALUES"
                    + " ('i', 'o1', 'oa-shared', now() - interval '2 minutes'),"
                    + " ('i', 'o2', 'oa-shared', now() - interval '1 minute'),"
                    + " ('j', 'o9', 'oa-shared', now() - interval '3 minutes'),"
                    + " ('i', 'b', 'oa-tie', now() - interval '1 hour'), ('i', 'a', 'oa-tie', now() - interval '1 hour'),"
                    + " ('i', 'o3', 'oa-alone', now())");
            for (String agent : List.of("oa-shared", "oa-alone", "oa-removed", "oa-0123456789abcdef0123456789abcdef",
                    "a1", "boa-1")) {
                statement.execute("INSERT INTO agent_settings (agent_id, browser_access, project_enabled, wiki_read,"
                        + " wiki_write, version, updated_at) VALUES ('" + agent + "', false, false, true, true, 1,"
                        + " now())");
            }
        }

        flyway(url).load().migrate();

        try (Connection connection = DriverManager.getConnection(url, "postgres", "");
                Statement statement = connection.createStatement()) {
            assertEquals(List.of("i b oa-tie", "i o2 oa-shared", "i o3 oa-alone"), rows(statement,
                    "SELECT issuer || ' ' || subject || ' ' || logical_agent_id FROM outside_agent ORDER BY 1"),
                    "the registration written last keeps a shared id (a tie: the last by issuer, then subject)");
            assertEquals(List.of("a1", "boa-1", "oa-alone", "oa-shared"), rows(statement,
                    "SELECT agent_id FROM agent_settings ORDER BY 1"),
                    "settings no registration names are left over from removed ones; thread agents keep theirs");
            SQLException refused = assertThrows(SQLException.class, () -> statement.execute("INSERT INTO"
                    + " outside_agent (issuer, subject, logical_agent_id, updated_at) VALUES ('i', 'o4', 'oa-alone',"
                    + " now())"));
            assertEquals("23505", refused.getSQLState());
            assertEquals(List.of("1"), rows(statement, "SELECT DISTINCT version FROM outside_agent"),
                    "V15: a registration stored before versions is at version 1");
            assertEquals(List.of(String.valueOf(SchemaVersionCheck.SCHEMA_VERSION)), rows(statement,
                    "SELECT max(CAST(version AS INTEGER)) FROM flyway_schema_history"));
        }
    }

    /** A database of this test's own on the embedded server, so the migrations run from the start. */
    private static String databaseOfItsOwn() throws SQLException {
        DataSource pool = io.micronaut.data.connection.jdbc.advice.DelegatingDataSource.unwrapDataSource(
                context.getBean(DataSource.class));
        String name = "v14_" + UUID.randomUUID().toString().replace("-", "");
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
            String url = connection.getMetaData().getURL();
            return url.replaceFirst("/[^/?]+(\\?|$)", "/" + name + "$1");
        }
    }

    private static org.flywaydb.core.api.configuration.FluentConfiguration flyway(String url) {
        return Flyway.configure().dataSource(url, "postgres", "").locations("classpath:db/migration");
    }

    private static List<String> rows(Statement statement, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                rows.add(result.getString(1));
            }
        }
        return rows;
    }
}
