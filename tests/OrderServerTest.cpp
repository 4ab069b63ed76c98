// The whole server assembled in process (OrderServer on a free port, a real SQLite file or a fresh PostgreSQL
// database) with an injected clock: what the background reaper does, driven by hand instead of waiting for its timer.
#include "OrderServer.h"
#include "support/EndToEndFixture.h"
#include "support/Http.h"

#include <gtest/gtest.h>

#include <thread>

using namespace onceorder::server;
using namespace onceorder::test;

namespace {

constexpr std::int64_t kStart = 1'790'000'000'000;
constexpr std::chrono::seconds kTtl {60};

class OrderServerTest : public EndToEndFixture
{
protected:
    void SetUp() override
    {
        EndToEndFixture::SetUp();
        if (IsSkipped() || HasFatalFailure()) {
            return;
        }
        options.port = 0;
        options.dbPath = database();
        options.keyTtl = kTtl;
        options.threads = 2;
        server = std::make_unique<OrderServer>(options, clock);
        port = server->bind();
        // The socket listens from bind() on, so requests queue until run() serves them: no wait needed.
        serving = std::thread([this] { server->run(); });
        http = std::make_unique<httplib::Client>("127.0.0.1", port);
    }
    void TearDown() override
    {
        if (!server) { // skipped
            return;
        }
        get(*http, "/healthz"); // answered only once run() serves, so stop() cannot come before it starts
        server->stop();
        serving.join();
        server.reset(); // before the database goes
    }

    long long keys() const { return scalar("SELECT count(*) FROM idempotency_keys"); }

    ManualClock clock {kStart};
    ServerOptions options;
    std::unique_ptr<OrderServer> server;
    int port = -1;
    std::thread serving;
    std::unique_ptr<httplib::Client> http;
};

} // namespace

TEST_P(OrderServerTest, ReaperDeletesExpiredKeysAndCountsThemInMetrics)
{
    ASSERT_GT(port, 0);
    for (const char* key : {"old-1", "old-2", "old-3"}) {
        ASSERT_EQ(postOrder(*http, "demo-key-A", key, R"({"product":"kniha","quantity":1})").status, 201);
    }
    // A finished checkout's key goes with them (the checkout reaper's batch).
    ASSERT_EQ(
        toReply(http->Post("/checkout", {{"Authorization", "Bearer demo-key-A"}, {"Idempotency-Key", "\"old-c\""}},
                           R"({"product":"kniha","quantity":1,"payment_method":"card"})", "application/json"))
            .status,
        201);
    clock.advanceMs(std::chrono::milliseconds(kTtl).count() / 2);
    ASSERT_EQ(postOrder(*http, "demo-key-A", "young", R"({"product":"kniha","quantity":1})").status, 201);

    EXPECT_EQ(server->reapExpiredKeys(), 0) << "nothing has expired yet";
    EXPECT_NE(get(*http, "/metrics").body.find("onceorder_idempotency_keys_reaped_total 0"), std::string::npos);

    clock.advanceMs(std::chrono::milliseconds(kTtl).count() / 2);
    EXPECT_EQ(server->reapExpiredKeys(), 4);
    EXPECT_EQ(keys(), 1) << "the young key stays";
    EXPECT_EQ(scalar("SELECT count(*) FROM checkout_keys"), 0);
    EXPECT_EQ(server->reapExpiredKeys(), 0);

    const Reply metrics = get(*http, "/metrics");
    EXPECT_NE(metrics.body.find("onceorder_idempotency_keys_reaped_total 4"), std::string::npos) << metrics.body;

    // The reaped key is free again: the same key now places a new order.
    const Reply again = postOrder(*http, "demo-key-A", "old-1", R"({"product":"kniha","quantity":1})");
    EXPECT_EQ(again.status, 201);
    EXPECT_FALSE(again.replayed());
}

TEST_P(OrderServerTest, AnExpiredKeyIsTakenOverBeforeTheReaperDeletesIt)
{
    // The claim is the article's INSERT … ON CONFLICT DO NOTHING; a key that is there but expired counts as absent and
    // is taken over in the same transaction (an UPDATE only when the INSERT found the key), on either database.
    ASSERT_GT(port, 0);
    const Reply first = postOrder(*http, "demo-key-A", "reused", R"({"product":"kniha","quantity":1})");
    ASSERT_EQ(first.status, 201);
    const Reply live = postOrder(*http, "demo-key-A", "reused", R"({"product":"hrnek","quantity":2})");
    EXPECT_EQ(live.status, 422) << "a live key with another payload";

    clock.advanceMs(std::chrono::milliseconds(kTtl).count() + 1);
    const Reply again = postOrder(*http, "demo-key-A", "reused", R"({"product":"hrnek","quantity":2})");
    EXPECT_EQ(again.status, 201) << again.body;
    EXPECT_FALSE(again.replayed());
    EXPECT_NE(again.body, first.body);
    EXPECT_EQ(scalar("SELECT count(*) FROM orders"), 2);
    EXPECT_EQ(keys(), 1) << "the expired row was taken over, not deleted and inserted again";
    const Reply replay = postOrder(*http, "demo-key-A", "reused", R"({"product":"hrnek","quantity":2})");
    EXPECT_TRUE(replay.replayed());
    EXPECT_EQ(replay.body, again.body);
}

INSTANTIATE_TEST_SUITE_P(Databases, OrderServerTest, kEveryDatabase, backendName);
