// ClientLimitsTest: what the operator stores for a client with `onceorder-server clients add NAME --rate N
// --key-rows N` (table client_limits, SPEC §3's admin command with two optional flags), against the real server on
// both databases: a client's own rate answers 429 rate-limited where the server's default would not, and its key-row
// quota bounds the key rows it makes in 24 hours (429 key-quota-exceeded with Retry-After, counted per client in
// /metrics), while a replay or a reused key costs nothing and other clients go on. The quota's arithmetic over hours
// is KeyRowQuotaTest's, with a manual clock.
#include "support/EndToEndFixture.h"
#include "support/Http.h"
#include "support/ServerCommand.h"

#include <gtest/gtest.h>

#include <mutex>
#include <thread>
#include <vector>

using namespace onceorder::test;

namespace {

constexpr const char* kOrder = R"({"product":"kniha","quantity":1})";

class ClientLimitsTest : public EndToEndFixture
{
protected:
    // Issues client `name` a key with `flags`; the key, or "" (and a failure) if the command refused.
    std::string addClient(const std::string& name, const std::string& flags)
    {
        const CommandRun issued = runServerCommand("clients add " + name + " --db '" + database() + "' " + flags);
        EXPECT_EQ(issued.status, 0) << issued.out;
        return issued.out.substr(0, issued.out.find('\n'));
    }
};

} // namespace

TEST_P(ClientLimitsTest, AClientsKeyRowsIn24HoursAreBoundedByTheQuotaTheOperatorStored)
{
    const std::string key = addClient("shop", "--key-rows 3");
    ASSERT_FALSE(key.empty());
    EXPECT_EQ(scalar("SELECT key_rows_per_day FROM client_limits WHERE client_id = 'shop'"), 3);
    auto server = startServer();
    auto http = server->client();
    ASSERT_EQ(postOrder(*http, key, "k1", kOrder).status, 201);
    // A replay and a reused key with another body make no key row: they are given back, not counted.
    const Reply replay = postOrder(*http, key, "k1", kOrder);
    EXPECT_EQ(replay.status, 201);
    EXPECT_TRUE(replay.replayed());
    EXPECT_EQ(postOrder(*http, key, "k1", R"({"product":"kniha","quantity":2})").status, 422);
    // A stored 422 (out of stock) is a key row like a 201.
    EXPECT_EQ(postOrder(*http, key, "k2", R"({"product":"hrnek","quantity":99})").status, 422);
    EXPECT_EQ(postOrder(*http, key, "k3", kOrder).status, 201);
    // The fourth new key in 24 hours is refused before anything is stored, with a Retry-After within the window.
    const Reply refused = postOrder(*http, key, "k4", kOrder);
    EXPECT_EQ(refused.status, 429) << refused.body;
    EXPECT_EQ(refused.problemType(), "/problems/key-quota-exceeded") << refused.body;
    EXPECT_EQ(refused.header("Content-Type"), "application/problem+json");
    const long long retryAfter = std::atoll(refused.header("Retry-After").c_str());
    EXPECT_GE(retryAfter, 1);
    EXPECT_LE(retryAfter, 25 * 3600);
    EXPECT_EQ(postOrder(*http, key, "k5", kOrder).status, 429);
    EXPECT_EQ(scalar("SELECT count(*) FROM idempotency_keys WHERE client_id = 'shop'"), 3);
    // The demo clients have no stored limits: the server's default (--client-key-rows, 100,000) is theirs.
    EXPECT_EQ(postOrder(*http, "demo-key-B", "k4", kOrder).status, 201);
    const Reply metrics = get(*http, "/metrics");
    EXPECT_NE(metrics.body.find("onceorder_key_quota_exceeded_total{client=\"shop\"} 2"), std::string::npos)
        << metrics.body;
    EXPECT_EQ(metrics.body.find("onceorder_key_quota_exceeded_total{client=\"B\"}"), std::string::npos);
    EXPECT_EQ(server->stop(), 0);
}

TEST_P(ClientLimitsTest, AClientAtItsQuotaStillGetsItsStoredAnswersBack)
{
    // A retry of an acknowledged order is answered from its key row, never refused: the quota counts new rows only.
    const std::string key = addClient("shop", "--key-rows 2");
    ASSERT_FALSE(key.empty());
    auto server = startServer();
    auto http = server->client();
    ASSERT_EQ(postOrder(*http, key, "k1", kOrder).status, 201);
    ASSERT_EQ(postOrder(*http, key, "k2", R"({"product":"hrnek","quantity":99})").status, 422);
    ASSERT_EQ(postOrder(*http, key, "k3", kOrder).status, 429);
    for (int retry = 0; retry < 3; ++retry) {
        const Reply replay = postOrder(*http, key, "k1", kOrder);
        EXPECT_EQ(replay.status, 201) << replay.body;
        EXPECT_TRUE(replay.replayed()) << replay.body;
        const Reply stored422 = postOrder(*http, key, "k2", R"({"product":"hrnek","quantity":99})");
        EXPECT_EQ(stored422.status, 422) << stored422.body;
        EXPECT_TRUE(stored422.replayed()) << stored422.body;
    }
    // A reused key with another body is the 422 it always was, not a 429.
    const Reply mismatch = postOrder(*http, key, "k1", R"({"product":"kniha","quantity":2})");
    EXPECT_EQ(mismatch.status, 422) << mismatch.body;
    EXPECT_NE(mismatch.problemType(), "/problems/key-quota-exceeded") << mismatch.body;
    // The new key refused made nothing: no key row, no order.
    EXPECT_EQ(postOrder(*http, key, "k3", kOrder).status, 429);
    EXPECT_EQ(scalar("SELECT count(*) FROM idempotency_keys WHERE client_id = 'shop'"), 2);
    EXPECT_EQ(scalar("SELECT count(*) FROM orders WHERE client_id = 'shop'"), 1);
    EXPECT_EQ(server->stop(), 0);
}

TEST_P(ClientLimitsTest, ARestartedServerCountsTheKeyRowsTheDatabaseHolds)
{
    // The count is the database's: a restart does not forget the rows of the last 24 hours.
    const std::string key = addClient("shop", "--key-rows 2");
    ASSERT_FALSE(key.empty());
    {
        auto first = startServer();
        auto http = first->client();
        ASSERT_EQ(postOrder(*http, key, "k1", kOrder).status, 201);
        ASSERT_EQ(postOrder(*http, key, "k2", kOrder).status, 201);
        EXPECT_EQ(first->stop(), 0);
    }
    auto second = startServer();
    auto http = second->client();
    const Reply refused = postOrder(*http, key, "k3", kOrder);
    EXPECT_EQ(refused.status, 429) << refused.body;
    EXPECT_EQ(refused.problemType(), "/problems/key-quota-exceeded") << refused.body;
    const long long retryAfter = std::atoll(refused.header("Retry-After").c_str());
    EXPECT_GE(retryAfter, 23 * 3600) << "the oldest row was made just now: it leaves the window in about 24 h";
    EXPECT_LE(retryAfter, 25 * 3600);
    const Reply replay = postOrder(*http, key, "k2", kOrder);
    EXPECT_EQ(replay.status, 201) << replay.body;
    EXPECT_TRUE(replay.replayed());
    EXPECT_EQ(scalar("SELECT count(*) FROM idempotency_keys WHERE client_id = 'shop'"), 2);
    EXPECT_EQ(second->stop(), 0);
}

TEST_P(ClientLimitsTest, AServerStartsWhateverNumberOfKeyRowsTheDatabaseHolds)
{
    // Nothing at start counts every key row (issue 38-1): a client's rows are counted the first time its quota is
    // decided, by its own primary-key prefix. A million rows of another client, with the smallest database budget
    // (on PostgreSQL a statement over 200 ms is cancelled; a scan of them all takes longer), start as an empty one.
    if (!capabilities().sharedByProcesses) {
        GTEST_SKIP() << "the statement budget (--db-timeout-ms) is a shared database's; one a process has to itself "
                        "has none, and the test's reads of it are read-only";
    }
    {
        auto first = startServer(); // makes the schema
        EXPECT_EQ(first->stop(), 0);
    }
    const long long made =
        scalar("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000) "
               "INSERT INTO idempotency_keys (client_id, idem_key, fingerprint, status, created_at, expires_at) "
               "SELECT 'bulk', 'k' || i, 'f', 'started', 9000000000000, 9000000000000 FROM n RETURNING 1");
    ASSERT_EQ(made, 1);
    ASSERT_EQ(scalar("SELECT count(*) FROM idempotency_keys"), 1000000);
    auto server = startServer({"--db-timeout-ms", "100"});
    ASSERT_TRUE(server->isRunning());
    auto http = server->client();
    const Reply placed = postOrder(*http, "demo-key-B", "k1", kOrder);
    EXPECT_EQ(placed.status, 201) << placed.body;
    EXPECT_EQ(server->stop(), 0);
}

TEST_P(ClientLimitsTest, ARestartedServerSeedsAClientOnceHoweverManyOfItsFirstCheckoutsRunAtOnce)
{
    // After a restart a client's count is seeded by the first request that decides its quota, inside its
    // transaction. Eight first checkouts at once (each in a transaction of its own, side by side) seed it once: the
    // rows stored before are counted once, and exactly the rest of the quota is placed.
    const std::string key = addClient("shop", "--key-rows 5");
    ASSERT_FALSE(key.empty());
    {
        auto first = startServer();
        auto http = first->client();
        ASSERT_EQ(postOrder(*http, key, "before-1", kOrder).status, 201);
        ASSERT_EQ(postOrder(*http, key, "before-2", kOrder).status, 201);
        EXPECT_EQ(first->stop(), 0);
    }
    auto server = startServer({"--client-rate", "0"});
    std::vector<std::thread> senders;
    std::mutex lock;
    int placed = 0;
    int refused = 0;
    for (int sender = 0; sender < 8; ++sender) {
        senders.emplace_back([&, sender] {
            auto http = server->client();
            const Reply reply = toReply(http->Post(
                "/checkout",
                {{"Authorization", "Bearer " + key}, {"Idempotency-Key", "\"c" + std::to_string(sender) + "\""}},
                R"({"product":"kniha","quantity":1,"payment_method":"card"})", "application/json"));
            std::lock_guard guard(lock);
            if (reply.status < 300) {
                ++placed;
            } else if (reply.status == 429 && reply.problemType() == "/problems/key-quota-exceeded") {
                ++refused;
            } else {
                ADD_FAILURE() << reply.status << " " << reply.body;
            }
        });
    }
    for (auto& sender : senders) {
        sender.join();
    }
    EXPECT_EQ(placed, 3) << "the two rows stored before are counted once";
    EXPECT_EQ(refused, 5);
    EXPECT_EQ(scalar("SELECT count(*) FROM checkout_keys WHERE client_id = 'shop'"), 3);
    EXPECT_EQ(server->stop(), 0);
}

TEST_P(ClientLimitsTest, AClientAtItsQuotaStillGetsItsStoredCheckoutBack)
{
    const std::string key = addClient("shop", "--key-rows 1");
    ASSERT_FALSE(key.empty());
    auto server = startServer();
    auto http = server->client();
    auto checkout = [&](const std::string& idemKey) {
        return toReply(http->Post("/checkout",
                                  {{"Authorization", "Bearer " + key}, {"Idempotency-Key", "\"" + idemKey + "\""}},
                                  R"({"product":"kniha","quantity":1,"payment_method":"card"})", "application/json"));
    };
    const Reply paid = checkout("c1");
    ASSERT_LT(paid.status, 300) << paid.body;
    const Reply replay = checkout("c1");
    EXPECT_EQ(replay.status, paid.status) << replay.body;
    EXPECT_EQ(replay.body, paid.body);
    const Reply refused = checkout("c2");
    EXPECT_EQ(refused.status, 429) << refused.body;
    EXPECT_EQ(refused.problemType(), "/problems/key-quota-exceeded") << refused.body;
    EXPECT_FALSE(refused.header("Retry-After").empty());
    EXPECT_EQ(scalar("SELECT count(*) FROM checkout_keys WHERE client_id = 'shop'"), 1);
    EXPECT_EQ(server->stop(), 0);
}

TEST_P(ClientLimitsTest, ManyNewKeysAtOnceMakeNoMoreRowsThanTheQuota)
{
    // Eight connections at once, forty new keys: the group commit writes them in shared transactions, and the quota
    // is counted inside them; exactly the quota is stored, every other key is refused and stores nothing.
    const std::string key = addClient("shop", "--key-rows 5");
    ASSERT_FALSE(key.empty());
    auto server = startServer({"--client-rate", "0"});
    std::vector<std::thread> senders;
    std::mutex lock;
    std::vector<std::string> placed;
    int refused = 0;
    for (int sender = 0; sender < 8; ++sender) {
        senders.emplace_back([&, sender] {
            auto http = server->client();
            for (int i = 0; i < 5; ++i) {
                const std::string idemKey = "s" + std::to_string(sender) + "-" + std::to_string(i);
                const Reply reply = postOrder(*http, key, idemKey, kOrder);
                std::lock_guard guard(lock);
                if (reply.status == 201) {
                    placed.push_back(idemKey);
                } else if (reply.status == 429 && reply.problemType() == "/problems/key-quota-exceeded") {
                    ++refused;
                } else {
                    ADD_FAILURE() << reply.status << " " << reply.body;
                }
            }
        });
    }
    for (auto& sender : senders) {
        sender.join();
    }
    EXPECT_EQ(placed.size(), 5U);
    EXPECT_EQ(refused, 35);
    EXPECT_EQ(scalar("SELECT count(*) FROM idempotency_keys WHERE client_id = 'shop'"), 5);
    EXPECT_EQ(scalar("SELECT count(*) FROM orders WHERE client_id = 'shop'"), 5);
    auto http = server->client();
    for (const auto& idemKey : placed) {
        EXPECT_TRUE(postOrder(*http, key, idemKey, kOrder).replayed()) << idemKey;
    }
    EXPECT_EQ(server->stop(), 0);
}

TEST_P(ClientLimitsTest, AClientsOwnRateIsKeptWhereTheServerHasNone)
{
    const std::string key = addClient("slow-shop", "--rate 1");
    ASSERT_FALSE(key.empty());
    auto server = startServer({"--client-rate", "0"}); // no default rate: a 429 comes from the stored one only
    auto http = server->client();
    int limited = 0;
    for (int i = 0; i < 10; ++i) {
        const Reply reply = postOrder(*http, key, "r" + std::to_string(i), kOrder);
        ASSERT_TRUE(reply.status == 201 || reply.status == 429) << reply.status << " " << reply.body;
        if (reply.status == 429) {
            EXPECT_EQ(reply.problemType(), "/problems/rate-limited");
            EXPECT_EQ(reply.header("Retry-After"), "1");
            ++limited;
        }
    }
    EXPECT_GE(limited, 1) << "one a second: ten at once cannot all be placed";
    for (int i = 0; i < 10; ++i) {
        EXPECT_EQ(postOrder(*http, "demo-key-A", "r" + std::to_string(i), kOrder).status, 201) << i;
    }
    const Reply metrics = get(*http, "/metrics");
    EXPECT_NE(metrics.body.find("onceorder_rate_limited_total{client=\"slow-shop\"} " + std::to_string(limited)),
              std::string::npos)
        << metrics.body;
    EXPECT_EQ(server->stop(), 0);
}

TEST_P(ClientLimitsTest, BadLimitsAreUsageErrorsAndStoreNothing)
{
    const std::string db = "--db '" + database() + "'";
    for (const std::string flags : {"--rate", "--rate x", "--rate -1", "--rate 1000001", "--key-rows 1e3",
                                    "--key-rows 1000000001", "--rate 1 --rate 2", "--limit 3"}) {
        const CommandRun run = runServerCommand("clients add bad " + db + " " + flags + " 2>&1");
        EXPECT_EQ(run.status, 2) << flags << ": " << run.out;
    }
    // No client "bad" was added by any of them: the name is still free.
    const std::string key = addClient("bad", "--rate 0 --key-rows 0");
    EXPECT_FALSE(key.empty());
    EXPECT_EQ(scalar("SELECT count(*) FROM client_limits WHERE client_id = 'bad' AND rate_per_second = 0 AND "
                     "key_rows_per_day = 0"),
              1);
    // Without flags no row: the server's defaults apply.
    addClient("plain", "");
    EXPECT_EQ(scalar("SELECT count(*) FROM client_limits WHERE client_id = 'plain'"), 0);
}

INSTANTIATE_TEST_SUITE_P(Databases, ClientLimitsTest, kEveryDatabase, backendName);
