// ServerOutageTest: a database that goes away under a running server (SPEC §3, issue 31's first point). While
// PostgreSQL refuses the server's connections, every route that needs it answers 503 with Retry-After and a problem
// that names no host, port or SQL (they answered 500 with libpq's words before); GET /healthz stays 200 (the process
// is alive) and GET /readyz says 503 (send the traffic elsewhere); once the database is back, both serve again with
// no restart.
#include "support/PostgresDatabase.h"
#include "support/ServerProcess.h"

#include <gtest/gtest.h>
#include <httplib.h>
#include <pqxx/pqxx>

#include <string>

using onceorder::test::ServerProcess;
using onceorder::test::TestDatabase;

namespace {

struct Answer
{
    int status = 0;
    std::string body;
    std::string retryAfter;
};

Answer get(const ServerProcess& server, const std::string& path)
{
    auto http = server.client();
    const auto result = http->Get(path, {{"Authorization", "Bearer demo-key-A"}, {"Host", "127.0.0.1"}});
    if (!result) {
        return {};
    }
    return {result->status, result->body, result->get_header_value("Retry-After")};
}

// Turns the server's database away: no new connections, and the server's open ones ended.
void takeAway(const TestDatabase& database, bool away)
{
    const char* maintenance = std::getenv("PGDATABASE");
    pqxx::connection connection(std::string("dbname=") + (maintenance && *maintenance ? maintenance : "postgres"));
    pqxx::nontransaction tx(connection);
    tx.exec0("ALTER DATABASE " + tx.quote_name(database.name()) + " ALLOW_CONNECTIONS " + (away ? "false" : "true"));
    if (away) {
        tx.exec_params("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", database.name());
    }
}

} // namespace

TEST(ServerOutageTest, WhileTheDatabaseIsAwayEveryRouteAnswers503AndReadyzSaysSo)
{
    ONCEORDER_REQUIRE_POSTGRES_OR_SKIP();
    TestDatabase database;
    ServerProcess server({"--db", database.uri(), "--debug-endpoints"});
    ASSERT_EQ(get(server, "/readyz").status, 200);
    ASSERT_EQ(get(server, "/products").status, 200);

    takeAway(database, true);
    for (const char* path : {"/products", "/orders", "/orders/1", "/_debug/state"}) {
        const Answer answer = get(server, path);
        EXPECT_EQ(answer.status, 503) << path << ": " << answer.body;
        EXPECT_EQ(answer.retryAfter, "1") << path;
        EXPECT_NE(answer.body.find("/problems/database-unavailable"), std::string::npos) << path << ": " << answer.body;
        for (const std::string& secret : {std::string(std::getenv("PGPORT") ? std::getenv("PGPORT") : "5432"),
                                          std::string("SELECT"), database.name()}) {
            EXPECT_EQ(answer.body.find(secret), std::string::npos)
                << path << " names " << secret << ": " << answer.body;
        }
    }
    auto http = server.client();
    const auto order = http->Post("/orders", {{"Authorization", "Bearer demo-key-A"}, {"Idempotency-Key", "\"k\""}},
                                  R"({"product":"kniha","quantity":1})", "application/json");
    ASSERT_TRUE(order);
    EXPECT_EQ(order->status, 503) << order->body;
    EXPECT_EQ(get(server, "/healthz").status, 200) << "the process is alive";
    const Answer notReady = get(server, "/readyz");
    EXPECT_EQ(notReady.status, 503);
    EXPECT_NE(notReady.body.find("/problems/not-ready"), std::string::npos) << notReady.body;

    takeAway(database, false);
    EXPECT_EQ(get(server, "/readyz").status, 200);
    EXPECT_EQ(get(server, "/products").status, 200);
    const auto placed = http->Post("/orders", {{"Authorization", "Bearer demo-key-A"}, {"Idempotency-Key", "\"k\""}},
                                   R"({"product":"kniha","quantity":1})", "application/json");
    ASSERT_TRUE(placed);
    EXPECT_EQ(placed->status, 201) << "nothing of the failed attempt was kept: " << placed->body;
    EXPECT_EQ(server.stop(), 0);
}

TEST(ServerOutageTest, ReadyzIsReadyOnSqlite)
{
    onceorder::test::TempDir dir;
    ServerProcess server({"--db", dir.file("server.db")});
    EXPECT_EQ(get(server, "/readyz").status, 200);
    EXPECT_NE(get(server, "/readyz").body.find("ready"), std::string::npos);
    EXPECT_EQ(server.stop(), 0);
}
