// Group commit (storage/GroupCommitter.h): what one shared transaction must not change. In process, with the real
// Store on a fresh SQLite file, one batch holding a normal order, a refusal, a transient failure and a duplicate;
// and with the real server process, a batch that a crash fault kills before and after its commit.
#include "orders/OrderService.h"
#include "storage/sqlite/GroupCommitter.h"
#include "support/Http.h"
#include "support/ServerProcess.h"
#include "support/SqliteReads.h"
#include "teaching/TeachingLessons.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <thread>

using namespace onceorder::server;
using onceorder::test::TempDir;

namespace {

constexpr std::int64_t kStart = 1'790'000'000'000;
constexpr std::chrono::seconds kTtl {3600};
constexpr const char* kOne = R"({"product":"kniha","quantity":1})";
constexpr const char* kTooMany = R"({"product":"hrnek","quantity":51})"; // hrnek has 50

class GroupCommitTest : public ::testing::Test
{
protected:
    TempDir dir;
    Store store {dir.file("server.db"), Synchronous::Full, 4};
    GroupCommitter committer {store};
    Faults faults;
    ManualClock clock {kStart};
    OrderService service {store.sql(), std::make_unique<TeachingLessons>(faults), clock, kTtl, &committer};
    Client a {"A", false};

    OrderResponse place(const std::string& key, std::string_view body)
    {
        auto command = parseOrderCommand(body);
        EXPECT_TRUE(std::holds_alternative<OrderCommand>(command)) << body;
        return service.placeOrder(a, key, std::get<OrderCommand>(command));
    }

    long long scalar(const std::string& sql)
    {
        auto db = store.lease();
        return db->execAndGet(sql).getInt64();
    }
    long long orders() { return scalar("SELECT count(*) FROM orders"); }
    long long stock(const std::string& product)
    {
        return scalar("SELECT stock FROM products WHERE id = '" + product + "'");
    }
    long long keyRows(const std::string& key)
    {
        return scalar("SELECT count(*) FROM idempotency_keys WHERE idem_key = '" + key + "'");
    }
};

} // namespace

TEST_F(GroupCommitTest, OneBatchKeepsEachRequestsAnswerAndAnswersNobodyBeforeItsCommit)
{
    committer.gatherAtLeast(4);
    std::atomic<int> answered {0};
    int answeredBeforeCommit = -1;
    long long ordersVisibleBeforeCommit = -1;
    std::size_t batchSize = 0;
    committer.beforeCommit([&](std::size_t jobs) {
        batchSize = jobs;
        answeredBeforeCommit = answered.load();
        // Another connection, as another process would read: the batch is not there yet.
        SQLite::Database reader(dir.file("server.db"), SQLite::OPEN_READONLY);
        ordersVisibleBeforeCommit = reader.execAndGet("SELECT count(*) FROM orders").getInt64();
    });

    // Queued one by one in a known order (each waits until the previous is in the queue), then run as one batch.
    OrderResponse first, failed, refused, duplicate;
    auto request = [&](OrderResponse& into, const std::string& key, const char* body) {
        return std::thread([&into, &answered, this, key, body] {
            into = place(key, body);
            ++answered;
        });
    };
    std::thread t1 = request(first, "k1", kOne);
    committer.waitUntilQueued(1);
    faults.arm(ArmedFault {FaultKind::FailBeforeCommit, 1, 0, 1}); // taken by the next request only
    std::thread t2 = request(failed, "k2", kOne);
    committer.waitUntilQueued(2);
    std::thread t3 = request(refused, "k3", kTooMany);
    committer.waitUntilQueued(3);
    std::thread t4 = request(duplicate, "k1", kOne);
    for (auto* t : {&t1, &t2, &t3, &t4}) {
        t->join();
    }

    EXPECT_EQ(batchSize, 4u);
    EXPECT_EQ(committer.batches(), 1u);
    EXPECT_EQ(answeredBeforeCommit, 0) << "nobody is answered before the batch is durable";
    EXPECT_EQ(ordersVisibleBeforeCommit, 0);

    EXPECT_EQ(first.status, 201);
    EXPECT_EQ(first.outcome, "created");
    EXPECT_FALSE(first.replayed);
    EXPECT_EQ(duplicate.status, 201) << "the duplicate found the first's completed key row in the same batch";
    EXPECT_TRUE(duplicate.replayed);
    EXPECT_EQ(duplicate.body, first.body);

    EXPECT_EQ(failed.status, 503);
    EXPECT_EQ(failed.outcome, "transient-failure");
    EXPECT_EQ(keyRows("k2"), 0) << "the failure rolled back its own savepoint, key row and all";

    EXPECT_EQ(refused.status, 422);
    EXPECT_EQ(refused.outcome, "out-of-stock");
    EXPECT_EQ(keyRows("k3"), 1) << "a refusal is a stored answer";
    EXPECT_EQ(stock("hrnek"), 50);

    EXPECT_EQ(orders(), 1);
    EXPECT_EQ(stock("kniha"), 99);

    // After the batch: the failed request's retry places its order, the refusal replays.
    committer.gatherAtLeast(1);
    const OrderResponse retry = place("k2", kOne);
    EXPECT_EQ(retry.status, 201);
    EXPECT_FALSE(retry.replayed);
    const OrderResponse refusedAgain = place("k3", kTooMany);
    EXPECT_TRUE(refusedAgain.replayed);
    EXPECT_EQ(refusedAgain.body, refused.body);
    EXPECT_EQ(orders(), 2);
}

TEST_F(GroupCommitTest, AJobThatThrowsSomethingElseUndoesOnlyItsOwnWork)
{
    committer.gatherAtLeast(2);
    std::exception_ptr thrown;
    std::thread failing([&] {
        try {
            committer.run([](Store::Lease& db) {
                db->exec("UPDATE products SET stock = 0 WHERE id = 'kniha'");
                throw std::logic_error("a bug in a request");
            });
        } catch (...) {
            thrown = std::current_exception();
        }
    });
    committer.waitUntilQueued(1);
    std::thread kept(
        [&] { committer.run([](Store::Lease& db) { db->exec("UPDATE products SET stock = 7 WHERE id = 'hrnek'"); }); });
    failing.join();
    kept.join();
    ASSERT_TRUE(thrown);
    EXPECT_THROW(std::rethrow_exception(thrown), std::logic_error) << "the submitter gets its own exception back";
    EXPECT_EQ(stock("kniha"), 100);
    EXPECT_EQ(stock("hrnek"), 7);
}

namespace {

using namespace onceorder::test;

constexpr const char* kA = "demo-key-A";
constexpr int kBatch = 4;

class GroupCommitCrashTest : public ::testing::Test
{
protected:
    TempDir dir;
    std::string dbPath = dir.file("server.db");

    // The server's every batch waits for kBatch requests (ONCEORDER_GROUP_COMMIT_GATHER), so the requests below
    // share one transaction whatever the timing.
    std::unique_ptr<ServerProcess> startGathering()
    {
        setenv("ONCEORDER_GROUP_COMMIT_GATHER", std::to_string(kBatch).c_str(), 1);
        auto server = std::make_unique<ServerProcess>(std::vector<std::string> {"--db", dbPath, "--debug-endpoints"});
        unsetenv("ONCEORDER_GROUP_COMMIT_GATHER");
        return server;
    }

    // kBatch concurrent orders under keys b0..b3, each on a connection of its own; their statuses.
    std::vector<int> placeBatch(const ServerProcess& server)
    {
        std::vector<int> statuses(kBatch, -1);
        std::vector<std::thread> clients;
        for (int i = 0; i < kBatch; ++i) {
            clients.emplace_back([&server, &statuses, i] {
                statuses[static_cast<std::size_t>(i)] =
                    postOrder(*server.client(), kA, "b" + std::to_string(i), kOne).status;
            });
        }
        for (auto& client : clients) {
            client.join();
        }
        return statuses;
    }

    long long orders() const { return sqliteScalar(dbPath, "SELECT count(*) FROM orders"); }
};

} // namespace

TEST_F(GroupCommitCrashTest, CrashBeforeCommitLosesTheWholeBatchAndAnswersNobody)
{
    auto server = startGathering();
    ASSERT_EQ(postJson(*server->client(), "/_debug/faults", R"({"fault":"crash-before-commit"})").status, 200);
    EXPECT_EQ(placeBatch(*server), std::vector<int>(kBatch, 0)) << "no client heard anything, least of all a 201";
    EXPECT_TRUE(WIFSIGNALED(server->waitForExit()));
    EXPECT_EQ(orders(), 0) << "nothing of the batch survives";

    ServerProcess restarted({"--db", dbPath});
    for (int i = 0; i < kBatch; ++i) {
        const Reply retry = postOrder(*restarted.client(), kA, "b" + std::to_string(i), kOne);
        EXPECT_EQ(retry.status, 201);
        EXPECT_FALSE(retry.replayed()) << "the retry places the order the crash lost";
    }
    EXPECT_EQ(orders(), kBatch);
}

TEST_F(GroupCommitCrashTest, CrashAfterCommitKeepsTheWholeBatchAndAnswersNobody)
{
    auto server = startGathering();
    ASSERT_EQ(postJson(*server->client(), "/_debug/faults", R"({"fault":"crash-after-commit"})").status, 200);
    EXPECT_EQ(placeBatch(*server), std::vector<int>(kBatch, 0)) << "the process died before answering anyone";
    EXPECT_TRUE(WIFSIGNALED(server->waitForExit()));
    EXPECT_EQ(orders(), kBatch) << "the whole batch was committed";

    ServerProcess restarted({"--db", dbPath});
    for (int i = 0; i < kBatch; ++i) {
        const Reply retry = postOrder(*restarted.client(), kA, "b" + std::to_string(i), kOne);
        EXPECT_EQ(retry.status, 201);
        EXPECT_TRUE(retry.replayed()) << "the retry finds the committed order";
    }
    EXPECT_EQ(orders(), kBatch);
}
