// PgPoolTest: the PostgreSQL connection pool (storage/postgres/PgPool.h) seen from outside, with real server
// processes on a database whose connection slots are few (issue 31: three instances on max_connections=20 answered
// 80 % of a mixed load 503/500 while connections sat idle in their pools). The scarcity is a CONNECTION LIMIT on the
// role the servers log in as: PostgreSQL refuses the connection beyond it with the same SQLSTATE 53300 as beyond
// max_connections ("too many connections for role" instead of "too many clients"), and a test can set it without
// restarting the shared cluster. A request that finds no connection waits for one up to --db-wait-ms, and only
// then is answered 503 with Retry-After; connections unused for --db-idle-ms go back to PostgreSQL, so that an
// instance started later finds a slot.
#include "support/Http.h"
#include "support/PostgresDatabase.h"
#include "support/ServerProcess.h"

#include <gtest/gtest.h>
#include <pqxx/pqxx>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace onceorder::test;
using Ms = std::chrono::milliseconds;
using SteadyClock = std::chrono::steady_clock;

namespace {

constexpr const char* kPassword = "pool-secret";

// Runs `sql` on the maintenance database as the environment's (super)user.
void maintenance(const std::string& sql)
{
    const char* database = std::getenv("PGDATABASE");
    pqxx::connection connection(std::string("dbname=") + (database && *database ? database : "postgres"));
    pqxx::nontransaction(connection).exec0(sql);
}

// A login role that owns `database` and may hold at most `limit` connections at once; dropped at the end (declare it
// before the database, so that the database goes first).
class LimitedRole
{
public:
    LimitedRole()
    {
        std::random_device random;
        m_name = "onceorder_pool_" + std::to_string(getpid()) + "_" + std::to_string(random() % 1'000'000);
    }
    ~LimitedRole()
    {
        try {
            maintenance("DROP ROLE IF EXISTS " + m_name);
        } catch (const std::exception& error) {
            std::fprintf(stderr, "could not drop role %s: %s\n", m_name.c_str(), error.what());
        }
    }
    LimitedRole(const LimitedRole&) = delete;
    LimitedRole& operator=(const LimitedRole&) = delete;

    void create(const TestDatabase& database, int limit)
    {
        maintenance("CREATE ROLE " + m_name + " LOGIN PASSWORD '" + kPassword + "' CONNECTION LIMIT " +
                    std::to_string(limit));
        maintenance("ALTER DATABASE " + database.name() + " OWNER TO " + m_name);
        m_database = database.name();
    }
    // The database, logged in as this role (host and port from the environment).
    std::string uri() const { return "postgresql://" + m_name + ":" + kPassword + "@/" + m_database; }
    // This role's connections, from pg_stat_activity, read on `watcher` (the environment's user's connection, which
    // the limit does not bind).
    long long sessions(pqxx::connection& watcher) const { return count(watcher, "true"); }
    // Of those, the ones in the servers' pools: not the checkout's lock holder (a session advisory lock held for the
    // life of the process, when the server has one) and none of `besides` (backend pids of the test's own).
    long long pooled(pqxx::connection& watcher, const std::vector<int>& besides = {}) const
    {
        std::string others = "0";
        for (int pid : besides) {
            others += "," + std::to_string(pid);
        }
        return count(watcher,
                     "pid NOT IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted) AND "
                     "pid NOT IN (" +
                         others + ")");
    }

private:
    long long count(pqxx::connection& watcher, const std::string& condition) const
    {
        pqxx::nontransaction tx(watcher);
        return tx.exec_params("SELECT count(*) FROM pg_stat_activity WHERE usename = $1 AND " + condition, m_name)[0][0]
            .as<long long>();
    }

    std::string m_name;
    std::string m_database;
};

struct Outcome
{
    int status = 0;
    std::string retryAfter;
    Ms took {0};
};

// One request of the mixed load: a new order (its key fixed across retries), the catalogue, or the order list.
Outcome send(const ServerProcess& server, int kind, const std::string& key)
{
    auto http = server.client();
    const auto started = SteadyClock::now();
    Reply reply;
    if (kind == 0) {
        reply = postOrder(*http, "demo-key-A", key, R"({"product":"kniha","quantity":1})");
    } else if (kind == 1) {
        reply = get(*http, "/products", "demo-key-A");
    } else {
        reply = get(*http, "/orders?limit=5", "demo-key-A");
    }
    return {reply.status, reply.header("Retry-After"), std::chrono::duration_cast<Ms>(SteadyClock::now() - started)};
}

// What a mixed load met: every answer, and whether every request succeeded in the end (retrying each 503).
struct LoadResult
{
    std::vector<Outcome> answers;
    int unfinished = 0; // requests still not 2xx when the retry deadline passed
    int orders = 0; // distinct order requests sent
};

LoadResult mixedLoad(const std::vector<std::unique_ptr<ServerProcess>>& servers, int clients, int requestsEach)
{
    LoadResult result;
    std::mutex lock;
    std::vector<std::thread> threads;
    const auto giveUpAt = SteadyClock::now() + std::chrono::seconds(120);
    for (int client = 0; client < clients; ++client) {
        threads.emplace_back([&, client] {
            for (int i = 0; i < requestsEach; ++i) {
                const int kind = (client + i) % 3;
                const std::string key = "pool-" + std::to_string(client) + "-" + std::to_string(i);
                // A client that is answered 503 retries the same request on the next instance, as a load balancer
                // would.
                for (int attempt = 0;; ++attempt) {
                    const auto& server = *servers[static_cast<std::size_t>(client + i + attempt) % servers.size()];
                    const Outcome outcome = send(server, kind, key);
                    std::lock_guard guard(lock);
                    result.answers.push_back(outcome);
                    if (outcome.status / 100 == 2) {
                        result.orders += kind == 0 ? 1 : 0;
                        break;
                    }
                    if (outcome.status != 503 || SteadyClock::now() > giveUpAt) {
                        ++result.unfinished;
                        break;
                    }
                }
            }
        });
    }
    for (auto& thread : threads) {
        thread.join();
    }
    return result;
}

class PgPoolTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ONCEORDER_REQUIRE_POSTGRES_OR_SKIP();
        db = std::make_unique<TestDatabase>();
        watcher = std::make_unique<pqxx::connection>(db->uri());
    }
    void TearDown() override
    {
        servers.clear(); // before the database goes
        watcher.reset();
        db.reset();
    }

    void start(int instances, const std::vector<std::string>& flags)
    {
        for (int i = 0; i < instances; ++i) {
            std::vector<std::string> args {"--db", role.uri(), "--threads", "8"};
            args.insert(args.end(), flags.begin(), flags.end());
            servers.push_back(std::make_unique<ServerProcess>(args));
        }
        // Enough stock for every order of the load (as the environment's user: the demo stock is small).
        db->scalar("WITH s AS (UPDATE products SET stock = 1000000 RETURNING 1) SELECT count(*) FROM s");
    }

    LimitedRole role; // dropped after the database (TearDown)
    std::unique_ptr<TestDatabase> db;
    std::unique_ptr<pqxx::connection> watcher;
    std::vector<std::unique_ptr<ServerProcess>> servers;
};

} // namespace

// Three instances that together want far more connections than the role may open, under a mixed load: no request
// fails for want of a connection before it has waited --db-wait-ms for one, none is answered 500, and every one
// succeeds (each order placed once) when clients retry their 503s.
TEST_F(PgPoolTest, ThreeInstancesUnderAMixedLoadWaitForAConnectionInsteadOfFailing)
{
    role.create(*db, 9);
    const Ms wait {10'000};
    start(3, {"--db-wait-ms", std::to_string(wait.count())});

    const LoadResult load = mixedLoad(servers, 12, 30);

    int early503 = 0;
    for (const Outcome& outcome : load.answers) {
        EXPECT_TRUE(outcome.status == 200 || outcome.status == 201 || outcome.status == 503)
            << "status " << outcome.status;
        if (outcome.status == 503) {
            EXPECT_EQ(outcome.retryAfter, "1");
            early503 += outcome.took < wait * 9 / 10 ? 1 : 0;
        }
    }
    EXPECT_EQ(early503, 0) << "503s answered before the wait bound, of " << load.answers.size() << " answers";
    EXPECT_EQ(load.unfinished, 0);
    EXPECT_EQ(db->scalar("SELECT count(*) FROM orders"), load.orders);
    for (auto& server : servers) {
        EXPECT_EQ(server->stop(), 0);
    }
}

// Every slot taken by others: a request waits --db-wait-ms, then is answered 503 with Retry-After (not at once);
// once a slot is free again it is served.
TEST_F(PgPoolTest, WithNoSlotFreeARequestIsAnswered503AfterTheWaitBound)
{
    const int limit = 4;
    role.create(*db, limit);
    const Ms wait {800};
    start(1, {"--db-wait-ms", std::to_string(wait.count()), "--db-idle-ms", "100"});
    // The test takes every slot the role has. A slot the server's pool holds (its readiness check, or the run
    // lease's heartbeat every 2 s) comes free within --db-idle-ms; the test waits for that and takes it too, so
    // that the server holds nothing and cannot open anything when the request comes.
    std::vector<std::unique_ptr<pqxx::connection>> taken;
    std::vector<int> takenPids;
    const auto giveUpAt = SteadyClock::now() + std::chrono::seconds(30);
    while (taken.size() < static_cast<std::size_t>(limit) && SteadyClock::now() < giveUpAt) {
        try {
            taken.push_back(std::make_unique<pqxx::connection>(role.uri()));
            takenPids.push_back(taken.back()->backendpid());
        } catch (const pqxx::broken_connection&) {
            // Refused: the server's pool holds the rest; wait for it to give them back, then take them.
            ASSERT_TRUE(waitUntil([&] { return role.pooled(*watcher, takenPids) == 0; }, std::chrono::seconds(20)))
                << role.pooled(*watcher, takenPids) << " pooled connections still open";
        }
    }
    ASSERT_EQ(taken.size(), static_cast<std::size_t>(limit)) << "the test could not take every slot of the role";
    ASSERT_EQ(role.pooled(*watcher, takenPids), 0) << "the server holds a slot beyond the role's CONNECTION LIMIT";

    const Outcome refused = send(*servers[0], 1, {});
    EXPECT_EQ(refused.status, 503);
    EXPECT_EQ(refused.retryAfter, "1");
    EXPECT_GE(refused.took, wait * 9 / 10) << "answered before it had waited for a slot";

    taken.pop_back();
    EXPECT_EQ(send(*servers[0], 1, {}).status, 200);
    EXPECT_EQ(send(*servers[0], 0, "after-the-wait").status, 201);
    EXPECT_EQ(servers[0]->stop(), 0);
}

// After a load that took every slot the role has, the three instances give their unused connections back within
// --db-idle-ms (counted in pg_stat_activity), and a fourth instance started while they sit idle serves.
TEST_F(PgPoolTest, IdleConnectionsGoBackAndANewInstanceCanServe)
{
    const int limit = 6;
    role.create(*db, limit);
    start(3, {"--db-wait-ms", "10000", "--db-idle-ms", "300"});

    std::atomic<bool> loading {true};
    long long peak = 0;
    std::thread looker([&] {
        while (loading) {
            peak = std::max(peak, role.sessions(*watcher));
            std::this_thread::sleep_for(Ms(5)); // a look every 5 ms, not a wait for anything
        }
    });
    const LoadResult load = mixedLoad(servers, 12, 15);
    loading = false;
    looker.join();
    EXPECT_EQ(load.unfinished, 0);
    EXPECT_EQ(peak, limit) << "the load never took every slot: the test shows nothing";

    EXPECT_TRUE(waitUntil([&] { return role.pooled(*watcher) == 0; }, std::chrono::seconds(20)))
        << role.pooled(*watcher) << " pooled connections still open after the idle time";

    servers.push_back(std::make_unique<ServerProcess>(
        std::vector<std::string> {"--db", role.uri(), "--db-wait-ms", "2000", "--db-idle-ms", "300"}));
    EXPECT_EQ(send(*servers.back(), 1, {}).status, 200);
    EXPECT_EQ(send(*servers.back(), 0, "new-instance").status, 201);
    for (auto& server : servers) {
        EXPECT_EQ(server->stop(), 0);
    }
}
