// Named prepared statements behind a transaction pooler (issue 31). `--db-prepare on` (the default) prepares each
// statement once per connection; behind PgBouncer in transaction pooling a transaction may get a server connection
// where another client prepared the same name (SQLSTATE 42P05) or where it was never prepared (26000). The server then
// sends its statements unnamed for good, and a request that met it runs once more before it is answered (its
// transaction rolled back): neither 500 nor 503 (before, the request that met it answered 503 and only the client's
// retry got through); a start that met it tries once more (before, the server exited at start).
//
// Meaningful only behind a pooler: scripts/test runs the PostgreSQL suites a second time through scripts/lib/
// with-pgbouncer, which names the cluster itself by ONCEORDER_PGADMIN_HOST/PORT; straight to the cluster it skips.
#include "support/Http.h"
#include "support/PostgresDatabase.h"
#include "support/ServerProcess.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace onceorder::test;

namespace {

bool behindAPooler()
{
    const char* admin = std::getenv("ONCEORDER_PGADMIN_PORT");
    const char* port = std::getenv("PGPORT");
    return admin && *admin && port && std::string(admin) != port;
}

TEST(PgPoolerFallbackTest, ServersThatPrepareStatementsStartServeAndNeverAnswer500BehindATransactionPooler)
{
    if (auto missing = postgresMissing()) {
        GTEST_SKIP() << *missing;
    }
    if (!behindAPooler()) {
        GTEST_SKIP() << "not behind a transaction pooler (scripts/lib/with-pgbouncer sets ONCEORDER_PGADMIN_PORT)";
    }
    TestDatabase database;
    // Three processes, each with the same statement names, share PgBouncer's few server connections: collisions are
    // certain within the first requests. The flag wins over ONCEORDER_DB_PREPARE=off that with-pgbouncer sets.
    std::vector<std::unique_ptr<ServerProcess>> servers;
    for (int i = 0; i < 3; ++i) {
        servers.push_back(std::make_unique<ServerProcess>(
            std::vector<std::string> {"--db", database.uri(), "--db-prepare", "on", "--threads", "4"}));
    }
    constexpr int kClients = 6;
    constexpr int kKeysEach = 15;
    std::atomic<int> internalErrors = 0;
    std::atomic<int> unavailable = 0;
    std::atomic<int> unanswered503 = 0;
    std::atomic<int> placed = 0;
    std::vector<std::thread> clients;
    for (int c = 0; c < kClients; ++c) {
        clients.emplace_back([&, c] {
            auto http = servers[static_cast<std::size_t>(c) % servers.size()]->client();
            for (int k = 0; k < kKeysEach; ++k) {
                const std::string key = "pooled-" + std::to_string(c) + "-" + std::to_string(k);
                Reply reply;
                // The client's way: the same key again after a 503, a bounded number of times.
                for (int attempt = 0; attempt < 20; ++attempt) {
                    reply = postOrder(*http, "demo-key-A", key, R"({"product":"kniha","quantity":1})");
                    if (reply.status == 500) {
                        ++internalErrors;
                    }
                    if (reply.status == 503) {
                        ++unavailable;
                        if (reply.header("Retry-After").empty()) {
                            ++unanswered503;
                        }
                    }
                    if (reply.status != 503) {
                        break;
                    }
                }
                if (reply.status == 201) {
                    ++placed;
                }
                const Reply listing = get(*http, "/orders", "demo-key-A");
                if (listing.status == 500) {
                    ++internalErrors;
                }
                if (listing.status == 503) {
                    ++unavailable;
                }
            }
        });
    }
    for (auto& client : clients) {
        client.join();
    }
    EXPECT_EQ(internalErrors.load(), 0);
    EXPECT_EQ(unavailable.load(), 0) << "a request that met a missing or doubled statement name was not run again";
    EXPECT_EQ(unanswered503.load(), 0);
    EXPECT_EQ(placed.load(), kClients * kKeysEach);
    EXPECT_EQ(database.scalar("SELECT count(*) FROM orders"), kClients * kKeysEach);
    EXPECT_EQ(database.scalar("SELECT count(DISTINCT idem_key) FROM idempotency_keys WHERE response_code = 201"),
              kClients * kKeysEach);
    for (auto& server : servers) {
        EXPECT_EQ(server->stop(), 0);
    }
}

} // namespace
