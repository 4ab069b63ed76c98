// ServerMigrateTest: `onceorder-server migrate` and a server that needs no more than row rights (SPEC §3, issue 31).
// The tables' owner migrates; the server then runs as a role with only SELECT/INSERT/UPDATE/DELETE and sequence use
// (it failed with a three-line SQL error before: every start ran the DDL). A database without the schema, or with an
// older one, is refused with one line that says to run migrate, and nothing is changed.
#include "support/PostgresDatabase.h"
#include "support/ServerCommand.h"
#include "support/ServerProcess.h"

#include <gtest/gtest.h>
#include <httplib.h>
#include <pqxx/pqxx>

#include <cstdio>
#include <random>
#include <string>

using onceorder::test::CommandRun;
using onceorder::test::runServerCommand;
using onceorder::test::ServerProcess;
using onceorder::test::TestDatabase;

namespace {

void exec(const std::string& uri, const std::string& sql)
{
    pqxx::connection connection(uri);
    pqxx::nontransaction tx(connection);
    tx.exec0(sql);
}

// A login role with the rights a serving instance needs on `database`'s tables, dropped at the end.
class RowsOnlyRole
{
public:
    explicit RowsOnlyRole(const TestDatabase& database)
        : m_database(database)
    {
        std::random_device random;
        m_name = "onceorder_app_" + std::to_string(random() % 1'000'000'000);
        exec(database.uri(), "CREATE ROLE " + m_name + " LOGIN PASSWORD 'app-secret'");
    }
    ~RowsOnlyRole()
    {
        try {
            exec(m_database.uri(), "DROP OWNED BY " + m_name);
            exec(m_database.uri(), "DROP ROLE " + m_name);
        } catch (const std::exception& error) {
            std::fprintf(stderr, "could not drop role %s: %s\n", m_name.c_str(), error.what());
        }
    }
    RowsOnlyRole(const RowsOnlyRole&) = delete;
    RowsOnlyRole& operator=(const RowsOnlyRole&) = delete;

    void grantRows() const
    {
        exec(m_database.uri(),
             "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO " + m_name +
                 "; GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO " + m_name);
    }
    // The same database, logged in as this role (host and port from the environment, as for every libpq program).
    std::string uri() const { return "postgresql://" + m_name + ":app-secret@/" + m_database.name(); }

private:
    const TestDatabase& m_database;
    std::string m_name;
};

int postOrder(const ServerProcess& server, const std::string& key)
{
    auto http = server.client();
    const auto result = http->Post("/orders", {{"Authorization", "Bearer demo-key-A"}, {"Idempotency-Key", key}},
                                   R"({"product":"kniha","quantity":1})", "application/json");
    return result ? result->status : 0;
}

} // namespace

// A hardened database gives no role the TEMPORARY right: the readiness probe cannot make its temporary table there,
// and says ready without its disk step (docs/postgresql.md) rather than 503 for ever while orders work.
TEST(ServerMigrateTest, ARoleWithoutTheTemporaryRightIsReadyAndServes)
{
    ONCEORDER_REQUIRE_POSTGRES_OR_SKIP();
    TestDatabase database;
    RowsOnlyRole app(database);
    const CommandRun migrated = runServerCommand("migrate --db " + database.uri() + " 2>&1");
    ASSERT_EQ(migrated.status, 0) << migrated.out;
    app.grantRows();
    exec(database.uri(), "REVOKE TEMPORARY ON DATABASE \"" + database.name() + "\" FROM PUBLIC");

    ServerProcess server({"--db", app.uri()});
    auto http = server.client();
    const auto ready = http->Get("/readyz");
    ASSERT_TRUE(ready);
    EXPECT_EQ(ready->status, 200) << ready->body;
    EXPECT_EQ(postOrder(server, "\"no-temporary-1\""), 201);
    EXPECT_EQ(server.stop(), 0);
}

TEST(ServerMigrateTest, TheOwnerMigratesAndARoleWithRowRightsOnlyServes)
{
    ONCEORDER_REQUIRE_POSTGRES_OR_SKIP();
    TestDatabase database;
    RowsOnlyRole app(database);

    // Before migrate: the role may not create the schema, and says so in one line.
    const CommandRun refused = runServerCommand("--listen 127.0.0.1:0 --db '" + app.uri() + "' 2>&1");
    EXPECT_NE(refused.status, 0);
    EXPECT_NE(refused.out.find("onceorder-server migrate"), std::string::npos) << refused.out;
    EXPECT_EQ(std::count(refused.out.begin(), refused.out.end(), '\n'), 1) << refused.out;

    const CommandRun migrated = runServerCommand("migrate --db " + database.uri() + " 2>&1");
    ASSERT_EQ(migrated.status, 0) << migrated.out;
    EXPECT_NE(migrated.out.find("created"), std::string::npos) << migrated.out;
    EXPECT_NE(runServerCommand("migrate --db " + database.uri() + " 2>&1").out.find("already current"),
              std::string::npos);
    app.grantRows();

    ServerProcess server({"--db", app.uri()});
    EXPECT_EQ(postOrder(server, "\"rows-only-1\""), 201);
    EXPECT_EQ(postOrder(server, "\"rows-only-1\""), 201) << "the replay";
    auto http = server.client();
    const auto ready = http->Get("/readyz");
    ASSERT_TRUE(ready);
    EXPECT_EQ(ready->status, 200);
    EXPECT_EQ(server.stop(), 0);
    EXPECT_EQ(database.scalar("SELECT count(*) FROM orders"), 1);
    // The role cannot migrate.
    const CommandRun notOwner = runServerCommand("migrate --db '" + app.uri() + "' 2>&1");
    EXPECT_EQ(notOwner.status, 1) << notOwner.out;
}

TEST(ServerMigrateTest, AnOlderSchemaIsRefusedUntilMigratedAndTheKeysAreThenHashed)
{
    ONCEORDER_REQUIRE_POSTGRES_OR_SKIP();
    TestDatabase database;
    {
        ServerProcess first({"--db", database.uri()}); // a new database: made at the first start, as before
    }
    // As a server of schema version 1 left it: keys in clear.
    exec(database.uri(),
         "ALTER TABLE clients RENAME COLUMN key_hash TO api_key; UPDATE clients SET api_key = "
         "'demo-key-A' WHERE id = 'A'; UPDATE server_meta SET value = '1' WHERE name = "
         "'schema_version'");
    const CommandRun refused = runServerCommand("--listen 127.0.0.1:0 --db " + database.uri() + " 2>&1");
    EXPECT_NE(refused.status, 0);
    EXPECT_NE(refused.out.find("schema is version 1"), std::string::npos) << refused.out;
    EXPECT_NE(refused.out.find("onceorder-server migrate"), std::string::npos) << refused.out;
    EXPECT_EQ(database.text("SELECT api_key FROM clients WHERE id = 'A'"), "demo-key-A") << "nothing was changed";

    const CommandRun migrated = runServerCommand("migrate --db " + database.uri() + " 2>&1");
    ASSERT_EQ(migrated.status, 0) << migrated.out;
    EXPECT_NE(migrated.out.find("upgraded from 1"), std::string::npos) << migrated.out;
    EXPECT_EQ(database.scalar("SELECT count(*) FROM clients WHERE key_hash NOT LIKE 'sha256:%'"), 0);
    ServerProcess server({"--db", database.uri()});
    EXPECT_EQ(postOrder(server, "\"after-migrate\""), 201);
    EXPECT_EQ(server.stop(), 0);
}

// Schema version 4 (issue 38): client_limits, what `clients add NAME --rate N --key-rows N` stores. A version 3
// database is refused until migrated; the migration adds the table and keeps every client.
TEST(ServerMigrateTest, Version3GetsClientLimitsWhenMigrated)
{
    ONCEORDER_REQUIRE_POSTGRES_OR_SKIP();
    TestDatabase database;
    {
        ServerProcess first({"--db", database.uri()});
    }
    exec(database.uri(), "DROP TABLE client_limits; UPDATE server_meta SET value = '3' WHERE name = 'schema_version'");
    const CommandRun refused = runServerCommand("--listen 127.0.0.1:0 --db " + database.uri() + " 2>&1");
    EXPECT_NE(refused.status, 0);
    EXPECT_NE(refused.out.find("schema is version 3"), std::string::npos) << refused.out;
    EXPECT_EQ(runServerCommand("clients add shop --key-rows 5 --db " + database.uri() + " 2>/dev/null").status, 1)
        << "clients add refuses an old schema too";

    const CommandRun migrated = runServerCommand("migrate --db " + database.uri() + " 2>&1");
    ASSERT_EQ(migrated.status, 0) << migrated.out;
    EXPECT_NE(migrated.out.find("schema version 4 (upgraded from 3)"), std::string::npos) << migrated.out;
    EXPECT_EQ(database.scalar("SELECT count(*) FROM clients"), 3);
    const CommandRun added = runServerCommand("clients add shop --key-rows 5 --db " + database.uri());
    ASSERT_EQ(added.status, 0) << added.out;
    EXPECT_EQ(database.scalar("SELECT key_rows_per_day FROM client_limits WHERE client_id = 'shop'"), 5);
    EXPECT_EQ(database.scalar("SELECT count(*) FROM client_limits WHERE rate_per_second IS NULL"), 1);
}
