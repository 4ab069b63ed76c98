// The real onceorder-server process on a free port and a real database: the article, row by row, and the failures
// around it (crashes, concurrency, hostile input). Every case runs on a SQLite file and on a fresh PostgreSQL database
// (skipped without PGHOST, see support/PostgresDatabase.h).
#include "support/EndToEndFixture.h"
#include "support/Http.h"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <set>
#include <thread>

using namespace onceorder::test;

namespace {

constexpr const char* kA = "demo-key-A";
constexpr const char* kB = "demo-key-B";
constexpr const char* kOne = R"({"product":"kniha","quantity":1})";

class ServerEndToEndTest : public EndToEndFixture
{
protected:
    long long orders() const { return scalar("SELECT count(*) FROM orders"); }
    long long keys() const { return scalar("SELECT count(*) FROM idempotency_keys"); }
    long long stock() const { return scalar("SELECT stock FROM products WHERE id = 'kniha'"); }
};

} // namespace

TEST_P(ServerEndToEndTest, TheArticlesTableRowByRow)
{
    auto server = startServer();
    auto http = server->client();

    // A/K1 first: created.
    const Reply first = postOrder(*http, kA, "K1", kOne);
    EXPECT_EQ(first.status, 201);
    EXPECT_FALSE(first.replayed());
    EXPECT_EQ(first.header("Content-Type"), "application/json");
    EXPECT_EQ(orders(), 1);

    // A/K1 again: the stored response, byte for byte, marked as replayed.
    const Reply again = postOrder(*http, kA, "K1", kOne);
    EXPECT_EQ(again.status, 201);
    EXPECT_TRUE(again.replayed());
    EXPECT_EQ(again.body, first.body);
    EXPECT_EQ(orders(), 1);

    // A/K1 with the same data in another field order and spacing: still a retry.
    const Reply reordered = postOrder(*http, kA, "K1", R"( { "quantity" : 1, "product" : "kniha" } )");
    EXPECT_EQ(reordered.status, 201);
    EXPECT_TRUE(reordered.replayed());
    EXPECT_EQ(reordered.body, first.body);
    EXPECT_EQ(orders(), 1);

    // A/K1 with another quantity: the key was reused for a different payload.
    const Reply other = postOrder(*http, kA, "K1", R"({"product":"kniha","quantity":3})");
    EXPECT_EQ(other.status, 422);
    EXPECT_EQ(other.problemType(), "/problems/idempotency-key-reused");
    EXPECT_EQ(other.header("Content-Type"), "application/problem+json");
    EXPECT_EQ(orders(), 1);

    // B/K1: another client, its own order.
    const Reply fromB = postOrder(*http, kB, "K1", kOne);
    EXPECT_EQ(fromB.status, 201);
    EXPECT_FALSE(fromB.replayed());
    EXPECT_NE(fromB.field("order_id"), first.field("order_id"));
    EXPECT_EQ(orders(), 2);

    // No key at all.
    const Reply noKey = postOrder(*http, kA, "", kOne);
    EXPECT_EQ(noKey.status, 400);
    EXPECT_EQ(noKey.problemType(), "/problems/missing-idempotency-key");
    EXPECT_EQ(orders(), 2);
    EXPECT_EQ(stock(), 98);
}

TEST_P(ServerEndToEndTest, ReadRoutesShowOnlyTheClientsOwnOrders)
{
    auto server = startServer();
    auto http = server->client();
    const Reply a1 = postOrder(*http, kA, "a1", R"({"cart_id":"cart-7","items":[{"product":"hrnek","quantity":2}]})");
    const Reply a2 = postOrder(*http, kA, "a2", kOne);
    const Reply b1 = postOrder(*http, kB, "b1", kOne);

    const Reply mine = get(*http, "/orders", kA);
    EXPECT_EQ(mine.status, 200);
    EXPECT_EQ(countOf(mine.body, "\"order_id\":"), 2);
    EXPECT_LT(mine.body.find("\"order_id\":" + a2.field("order_id")),
              mine.body.find("\"order_id\":" + a1.field("order_id")))
        << "newest first";
    EXPECT_EQ(countOf(get(*http, "/orders?cart_id=cart-7", kA).body, "\"order_id\":"), 1);
    EXPECT_EQ(get(*http, "/orders/" + a1.field("order_id"), kA).field("cart_id"), "cart-7");
    EXPECT_EQ(get(*http, "/orders/" + b1.field("order_id"), kA).status, 404) << "B's order is not A's business";
    EXPECT_EQ(get(*http, "/orders", "").status, 401);
    EXPECT_EQ(get(*http, "/products").body.find("\"id\":\"hrnek\",\"name\":\"Hrnek OnceOrder\",\"stock\":48") !=
                  std::string::npos,
              true);
    EXPECT_EQ(get(*http, "/healthz").status, 200);
    const Reply metrics = get(*http, "/metrics");
    EXPECT_NE(metrics.body.find("onceorder_orders_created_total 3"), std::string::npos);
    EXPECT_NE(metrics.body.find(R"(onceorder_requests_total{outcome="created",route="POST /orders"} 3)"),
              std::string::npos);
}

TEST_P(ServerEndToEndTest, StockIsSetToAnAbsoluteValueByTheOperatorOnly)
{
    auto server = startServer();
    auto http = server->client();
    auto put = [&](const std::string& apiKey, const std::string& body) {
        return toReply(
            http->Put("/products/kniha/stock", {{"Authorization", "Bearer " + apiKey}}, body, "application/json"));
    };
    EXPECT_EQ(put("demo-key-admin", R"({"stock":7})").status, 200);
    EXPECT_EQ(put("demo-key-admin", R"({"stock":7})").status, 200) << "repeating an absolute value is harmless";
    EXPECT_EQ(stock(), 7);
    EXPECT_EQ(put(kA, R"({"stock":1000})").status, 403);
    EXPECT_EQ(put("demo-key-admin", R"({"stock":-1})").status, 400);
    EXPECT_EQ(put("demo-key-admin", R"({"delta":5})").status, 400);
    EXPECT_EQ(toReply(http->Put("/products/nic/stock", {{"Authorization", "Bearer demo-key-admin"}}, R"({"stock":1})",
                                "application/json"))
                  .status,
              404);
    EXPECT_EQ(stock(), 7);
}

TEST_P(ServerEndToEndTest, GracefulShutdownKeepsEverythingAcrossARestart)
{
    auto server = startServer();
    const Reply first = postOrder(*server->client(), kA, "K1", kOne);
    const int status = server->stop();
    EXPECT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);

    auto restarted = startServer();
    const Reply retry = postOrder(*restarted->client(), kA, "K1", kOne);
    EXPECT_TRUE(retry.replayed());
    EXPECT_EQ(retry.body, first.body);
    EXPECT_EQ(orders(), 1);
}

TEST_P(ServerEndToEndTest, FailBeforeCommitRollsBackAndTheRetryPlacesOneOrder)
{
    auto server = startServer();
    auto http = server->client();
    ASSERT_EQ(postJson(*http, "/_debug/faults", R"({"fault":"fail-before-commit"})").status, 200);
    const Reply failed = postOrder(*http, kA, "K1", kOne);
    EXPECT_EQ(failed.status, 503);
    EXPECT_EQ(failed.header("Retry-After"), "1");
    EXPECT_EQ(failed.problemType(), "/problems/transient-failure");
    EXPECT_EQ(keys(), 0) << "nothing stored";
    EXPECT_EQ(orders(), 0);
    const Reply retry = postOrder(*http, kA, "K1", kOne);
    EXPECT_EQ(retry.status, 201);
    EXPECT_FALSE(retry.replayed());
    EXPECT_EQ(orders(), 1);
}

TEST_P(ServerEndToEndTest, CrashBeforeCommitLeavesNothingAndTheRetryAfterRestartPlacesOneOrder)
{
    auto server = startServer();
    auto http = server->client();
    ASSERT_EQ(postJson(*http, "/_debug/faults", R"({"fault":"crash-before-commit"})").status, 200);
    const Reply lost = postOrder(*http, kA, "K1", kOne);
    EXPECT_EQ(lost.status, 0) << "the connection dies with the process";
    const int status = server->waitForExit();
    EXPECT_TRUE(WIFSIGNALED(status));
    EXPECT_EQ(orders(), 0);
    EXPECT_EQ(keys(), 0);
    EXPECT_EQ(stock(), 100);

    auto restarted = startServer();
    const Reply retry = postOrder(*restarted->client(), kA, "K1", kOne);
    EXPECT_EQ(retry.status, 201);
    EXPECT_FALSE(retry.replayed());
    EXPECT_EQ(orders(), 1);
}

TEST_P(ServerEndToEndTest, CrashAfterCommitIsRecoveredByAReplay)
{
    auto server = startServer();
    auto http = server->client();
    ASSERT_EQ(postJson(*http, "/_debug/faults", R"({"fault":"crash-after-commit"})").status, 200);
    EXPECT_EQ(postOrder(*http, kA, "K1", kOne).status, 0) << "the client never hears of its order";
    server->waitForExit();
    EXPECT_EQ(orders(), 1) << "but it was committed";

    auto restarted = startServer();
    const Reply retry = postOrder(*restarted->client(), kA, "K1", kOne);
    EXPECT_EQ(retry.status, 201);
    EXPECT_TRUE(retry.replayed());
    EXPECT_EQ(orders(), 1);
    EXPECT_EQ(stock(), 99);
}

TEST_P(ServerEndToEndTest, UnavailableFaultAnswers503WithRetryAfterWithoutTouchingTheDatabase)
{
    auto server = startServer();
    auto http = server->client();
    ASSERT_EQ(postJson(*http, "/_debug/faults", R"({"fault":"unavailable","count":2,"retry_after":3})").status, 200);
    for (int i = 0; i < 2; ++i) {
        const Reply refused = postOrder(*http, kA, "K1", kOne);
        EXPECT_EQ(refused.status, 503);
        EXPECT_EQ(refused.header("Retry-After"), "3");
    }
    EXPECT_EQ(keys(), 0);
    EXPECT_EQ(postOrder(*http, kA, "K1", kOne).status, 201);
}

namespace {

// Sends `copies` identical requests for each of `keys` keys, all at once; returns the order ids seen per key
// and the statuses seen.
struct StormResult
{
    std::map<std::string, std::set<std::string>> orderIdsByKey;
    std::multiset<int> statuses;
};

// httplib waits on sockets with select(), which cannot watch descriptors above 1024, so the copies of at most
// five keys (250 connections) are in flight at once; the copies of one key always start together.
StormResult storm(const ServerProcess& server, int keyCount, int copies)
{
    constexpr int kKeysPerWave = 5;
    StormResult result;
    std::mutex lock;
    for (int wave = 0; wave < keyCount; wave += kKeysPerWave) {
        const int keysNow = std::min(kKeysPerWave, keyCount - wave);
        std::vector<std::thread> threads;
        std::atomic<int> ready {0};
        std::atomic<bool> go {false};
        for (int k = wave; k < wave + keysNow; ++k) {
            for (int c = 0; c < copies; ++c) {
                threads.emplace_back([&, k] {
                    auto http = server.client();
                    const std::string key = "storm-" + std::to_string(k);
                    ++ready;
                    while (!go.load()) {
                        std::this_thread::yield();
                    }
                    const Reply reply = postOrder(*http, kA, key, kOne);
                    std::lock_guard guard(lock);
                    result.statuses.insert(reply.status);
                    if (reply.status == 201) {
                        result.orderIdsByKey[key].insert(reply.field("order_id"));
                    }
                });
            }
        }
        while (ready.load() < keysNow * copies) {
            std::this_thread::yield();
        }
        go = true;
        for (auto& thread : threads) {
            thread.join();
        }
    }
    return result;
}

std::string describe(const std::multiset<int>& statuses)
{
    std::string text;
    for (auto it = statuses.begin(); it != statuses.end(); it = statuses.upper_bound(*it)) {
        if (*it != 201) {
            text += std::to_string(*it) + " x" + std::to_string(statuses.count(*it)) + " ";
        }
    }
    return text;
}

} // namespace

TEST_P(ServerEndToEndTest, FiftyConcurrentCopiesOfTwentyKeysPlaceTwentyOrders)
{
    auto server = startServer({"--threads", "16"});
    const StormResult result = storm(*server, 20, 50);
    EXPECT_EQ(result.statuses.count(201), 1000u)
        << "every copy gets the order, never a 409 or 5xx; statuses other than 201: " << describe(result.statuses);
    EXPECT_EQ(result.orderIdsByKey.size(), 20u);
    for (const auto& [key, ids] : result.orderIdsByKey) {
        EXPECT_EQ(ids.size(), 1u) << key << " saw more than one order id";
    }
    EXPECT_EQ(orders(), 20);
    EXPECT_EQ(stock(), 80);
}

TEST_P(ServerEndToEndTest, CheckThenInsertDuplicatesUnderConcurrencyAndKeyFirstDoesNot)
{
    auto server = startServer({"--threads", "16"});
    auto http = server->client();
    ASSERT_EQ(postJson(*http, "/_debug/mode", R"({"check_then_insert":true})").status, 200);
    // Eight copies of one key start together (storm's barrier); each looks, finds nothing, then waits 2 s (the
    // delay fault, between the look and the insert) before it inserts. All eight look long before the first
    // insert, so every copy places an order: exactly eight, not "some duplicates if the threads overlapped".
    ASSERT_EQ(postJson(*http, "/_debug/faults", R"({"fault":"delay","count":8,"delay_ms":2000})").status, 200);
    const StormResult raced = storm(*server, 1, 8);
    EXPECT_EQ(raced.statuses.count(201), 8u) << describe(raced.statuses);
    EXPECT_EQ(orders(), 8) << "the look-then-insert race: one order per copy";
    EXPECT_EQ(raced.orderIdsByKey.begin()->second.size(), 8u) << "eight different order ids for one key";

    ASSERT_EQ(postJson(*http, "/_debug/reset", "{}").status, 200);
    ASSERT_EQ(orders(), 0);
    ASSERT_EQ(postJson(*http, "/_debug/faults", R"({"fault":"delay","count":1000,"delay_ms":20})").status, 200);
    const StormResult result = storm(*server, 5, 8);
    EXPECT_EQ(orders(), 5) << "key first: exactly one order per key";
    EXPECT_EQ(result.statuses.count(201), 40u);
}

// The catch_unique_violation mode on SQLite: the copies that looked before the first committed wait for the writer
// lock, then their plain INSERT violates the key's primary key. SQLite ends only that statement, so the caught
// error is followed by the read of the stored answer, and every copy gets the replay (on PostgreSQL the same catch
// fails: the scenario postgres-catch-the-error).
TEST_P(ServerEndToEndTest, CatchingTheUniqueViolationWorksOnSqliteWhereOnlyTheStatementFails)
{
    if (!capabilities().failedStatementKeepsTransaction) {
        GTEST_SKIP() << "here the caught violation aborts the transaction (on PostgreSQL: scenario "
                        "postgres-catch-the-error)";
    }
    auto server = startServer({"--threads", "16"});
    auto http = server->client();
    ASSERT_EQ(postJson(*http, "/_debug/mode", R"({"catch_unique_violation":true})").status, 200);
    ASSERT_EQ(postJson(*http, "/_debug/faults", R"({"fault":"delay","count":1000,"delay_ms":20})").status, 200);
    const StormResult result = storm(*server, 5, 8);
    EXPECT_EQ(result.statuses.count(201), 40u) << describe(result.statuses);
    EXPECT_EQ(orders(), 5);
    for (const auto& [key, ids] : result.orderIdsByKey) {
        EXPECT_EQ(ids.size(), 1u) << key;
    }
}

TEST_P(ServerEndToEndTest, DebugEndpointsRefuseWhatTheyDoNotUnderstandAndDisarmOnNone)
{
    auto server = startServer();
    auto http = server->client();
    const Reply unknownFault = postJson(*http, "/_debug/faults", R"({"fault":"explode"})");
    EXPECT_EQ(unknownFault.status, 400);
    EXPECT_EQ(unknownFault.problemType(), "/problems/invalid-fault");
    EXPECT_EQ(postJson(*http, "/_debug/faults", R"({"count":1})").problemType(), "/problems/invalid-fault");
    EXPECT_EQ(postJson(*http, "/_debug/faults", R"({"fault":"delay","delay_ms":-1})").problemType(),
              "/problems/invalid-fault");
    const Reply badMode = postJson(*http, "/_debug/mode", R"({"check_then_insert":"yes"})");
    EXPECT_EQ(badMode.status, 400);
    EXPECT_EQ(badMode.problemType(), "/problems/invalid-mode");

    ASSERT_EQ(postJson(*http, "/_debug/faults", R"({"fault":"fail-before-commit","count":5})").status, 200);
    ASSERT_EQ(postJson(*http, "/_debug/faults", R"({"fault":"none"})").status, 200);
    EXPECT_EQ(postOrder(*http, kA, "K1", kOne).status, 201) << "\"none\" disarmed the fault";
    const Reply state = get(*http, "/_debug/state");
    EXPECT_NE(state.body.find(R"("fault":{"fault":"none","remaining":0)"), std::string::npos) << state.body;
}

TEST_P(ServerEndToEndTest, DebugPostsRefuseCrossSiteFormsAndForeignOrigins)
{
    auto server = startServer();
    auto http = server->client();
    ASSERT_EQ(postOrder(*http, kA, "K1", kOne).status, 201);
    auto post = [&](const std::string& path, const std::string& contentType, const std::string& body,
                    const std::string& origin = {}) {
        httplib::Headers headers;
        if (!origin.empty()) {
            headers.emplace("Origin", origin);
        }
        return toReply(http->Post(path.c_str(), headers, body, contentType.c_str()));
    };
    // What a form on any web page can send without a CORS preflight.
    for (const std::string path : {"/_debug/reset", "/_debug/complete", "/_debug/faults", "/_debug/mode"}) {
        for (const std::string type : {"text/plain", "application/x-www-form-urlencoded"}) {
            const Reply form = post(path, type, "{}", "https://evil.example");
            EXPECT_EQ(form.status, 403) << path << " " << type;
            EXPECT_EQ(form.problemType(), "/problems/debug-foreign-origin") << path << " " << type;
            const Reply noOrigin = post(path, type, "{}");
            EXPECT_EQ(noOrigin.status, 415) << path << " " << type << " without Origin";
            EXPECT_EQ(noOrigin.problemType(), "/problems/unsupported-media-type") << path;
        }
        EXPECT_EQ(post(path, "application/json", "{}", "null").status, 403) << path << ": a sandboxed page";
        EXPECT_EQ(post(path, "application/json", "{}", "http://127.0.0.1.evil.example").status, 403) << path;
    }
    EXPECT_EQ(post("/_debug/reset", "application/json", "not json").problemType(), "/problems/malformed-json");
    EXPECT_EQ(post("/_debug/reset", "application/json", "[]").problemType(), "/problems/invalid-debug-body");
    EXPECT_EQ(orders(), 1) << "nothing above reset the data";

    EXPECT_EQ(post("/_debug/complete", "application/json", "{}", "http://localhost:5173").status, 200);
    EXPECT_EQ(post("/_debug/complete", "application/json", "{}", "http://[::1]:8080").status, 200);
    EXPECT_EQ(post("/_debug/reset", "application/json", "{}", "http://127.0.0.1:8080").status, 200);
    EXPECT_EQ(orders(), 0) << "a loopback page (or no page at all) may still reset";
}

INSTANTIATE_TEST_SUITE_P(Databases, ServerEndToEndTest, kEveryDatabase, backendName);
