// POST /checkout against the real onceorder-server process: the process killed between any two phases and
// restarted on the same database, the completer, a concurrent duplicate, a decline, and webhooks that arrive twice
// or as twins, checked in the database itself. Every test runs on both databases: SQLite (the server's file and the
// gateway's own file beside it) and PostgreSQL (one database holds both; skipped without PGHOST, as
// PostgresEndToEndTest).
#include "checkout/StubPaymentGateway.h"
#include "support/EndToEndFixture.h"
#include "support/Http.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>

using namespace onceorder::test;

namespace {

constexpr const char* kA = "demo-key-A";
constexpr const char* kPay = R"({"product":"kniha","quantity":1,"payment_method":"card"})";

Reply postCheckout(httplib::Client& client, const std::string& key, const std::string& body = kPay)
{
    return toReply(client.Post("/checkout",
                               {{"Authorization", std::string("Bearer ") + kA}, {"Idempotency-Key", "\"" + key + "\""}},
                               body, "application/json"));
}

Reply postWebhook(httplib::Client& client, const std::string& body, const std::string& signature)
{
    return toReply(client.Post("/webhooks/payments", {{"Gateway-Signature", signature}}, body, "application/json"));
}

class CheckoutEndToEndTest : public EndToEndFixture
{
protected:
    long long orders() const { return scalar("SELECT count(*) FROM orders"); }
    long long payments() const { return scalar("SELECT count(*) FROM payments"); }
    long long paidChanges() const
    {
        return scalar("SELECT count(*) FROM order_status_changes WHERE to_status = 'paid'");
    }
    long long charges() const { return gatewayScalar("SELECT count(*) FROM gateway_charges"); }
};

} // namespace

TEST_P(CheckoutEndToEndTest, ACrashBetweenAnyTwoPhasesEndsInOneOrderAndOneCharge)
{
    for (const std::string fault : {"crash-after-started", "crash-after-order-created", "crash-after-charge",
                                    "crash-after-payment-charged", "crash-after-finished"}) {
        SCOPED_TRACE(fault);
        const std::string key = "key-" + fault;
        auto server = startServer();
        const long long ordersBefore = orders();
        ASSERT_EQ(postJson(*server->client(), "/_debug/faults", R"({"fault":")" + fault + R"("})").status, 200);
        EXPECT_EQ(postCheckout(*server->client(), key).status, 0) << "the connection dies with the process";
        EXPECT_TRUE(WIFSIGNALED(server->waitForExit()));

        auto restarted = startServer();
        auto http = restarted->client();
        const Reply retry = postCheckout(*http, key);
        EXPECT_EQ(retry.status, 201) << retry.body;
        EXPECT_EQ(retry.field("status"), "paid");
        const Reply again = postCheckout(*http, key);
        EXPECT_TRUE(again.replayed());
        EXPECT_EQ(again.body, retry.body) << "the same final response from now on";
        EXPECT_EQ(restarted->stop(), 0);

        EXPECT_EQ(orders(), ordersBefore + 1);
        EXPECT_EQ(charges(), orders()) << "exactly one charge per order at the gateway";
        EXPECT_EQ(payments(), orders());
        EXPECT_EQ(paidChanges(), orders());
    }
}

TEST_P(CheckoutEndToEndTest, TheCompleterFinishesWhatACrashLeftWithoutTheClient)
{
    for (const std::string fault : {"crash-after-started", "crash-after-order-created", "crash-after-charge",
                                    "crash-after-payment-charged", "crash-after-finished"}) {
        SCOPED_TRACE(fault);
        const std::string key = "key-" + fault;
        auto server = startServer();
        ASSERT_EQ(postJson(*server->client(), "/_debug/faults", R"({"fault":")" + fault + R"("})").status, 200);
        EXPECT_EQ(postCheckout(*server->client(), key).status, 0);
        server->waitForExit();
        if (fault == "crash-after-charge") {
            EXPECT_EQ(scalar("SELECT count(*) FROM checkout_keys WHERE recovery_point = 'order_created'"), 1)
                << "charged at the gateway (its webhook queued), but the request's own phase never committed";
        }

        auto restarted = startServer();
        auto http = restarted->client();
        const Reply completed = postJson(*http, "/_debug/complete", "{}");
        EXPECT_EQ(completed.status, 200);
        EXPECT_EQ(completed.field("completed"), fault == "crash-after-finished" ? "0" : "1");
        EXPECT_NE(get(*http, "/metrics")
                      .body.find(std::string("onceorder_checkouts_completed_total ") +
                                 (fault == "crash-after-finished" ? "0" : "1")),
                  std::string::npos);
        EXPECT_EQ(scalar("SELECT count(*) FROM checkout_keys WHERE recovery_point <> 'finished'"), 0);

        const Reply retry = postCheckout(*http, key);
        EXPECT_EQ(retry.status, 201);
        EXPECT_TRUE(retry.replayed()) << "the client gets the response the completer stored";
        EXPECT_EQ(restarted->stop(), 0);
        EXPECT_EQ(charges(), orders());
        EXPECT_EQ(payments(), orders());
    }
    EXPECT_EQ(orders(), 5);
}

namespace {

// Polls GET /_debug/state until the checkout key row shows the first request at the gateway: its order phase
// committed and the row still locked. An event to wait for, with a deadline, instead of a guessed head start.
bool waitUntilAtTheGateway(httplib::Client& http, const std::atomic<bool>& firstDone)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!firstDone && std::chrono::steady_clock::now() < deadline) {
        const std::string body = get(http, "/_debug/state").body;
        if (body.find(R"("recovery_point":"order_created")") != std::string::npos &&
            body.find(R"("locked":true)") != std::string::npos) {
            return true;
        }
        std::this_thread::yield();
    }
    return false;
}

bool stillAtTheGateway(httplib::Client& http)
{
    const std::string body = get(http, "/_debug/state").body;
    return body.find(R"("recovery_point":"order_created")") != std::string::npos &&
        body.find(R"("locked":true)") != std::string::npos;
}

} // namespace

TEST_P(CheckoutEndToEndTest, TwentyConcurrentCopiesOfOneCheckoutChargeOnce)
{
    auto server = startServer();
    auto http = server->client();
    // The first copy holds the key's lock while the gateway takes 3 s; the other 19 start together (a barrier)
    // once the server shows that lock, and the test checks afterwards that the lock was still held: every one of
    // them met the request in progress. Without that, the 19 could all come after it and get the replay.
    ASSERT_EQ(postJson(*http, "/_debug/faults", R"({"fault":"gateway-slow","delay_ms":3000})").status, 200);
    Reply first;
    std::atomic<bool> firstDone {false};
    std::thread firstRequest([&] {
        first = postCheckout(*server->client(), "storm");
        firstDone = true;
    });
    ASSERT_TRUE(waitUntilAtTheGateway(*http, firstDone)) << "the first copy never showed at the gateway";

    std::vector<std::thread> threads;
    std::mutex lock;
    std::multiset<int> statuses;
    std::atomic<int> ready {0};
    std::atomic<bool> go {false};
    for (int i = 0; i < 19; ++i) {
        threads.emplace_back([&] {
            auto client = server->client();
            ++ready;
            while (!go) {
                std::this_thread::yield();
            }
            const Reply reply = postCheckout(*client, "storm");
            std::lock_guard guard(lock);
            statuses.insert(reply.status);
        });
    }
    while (ready < 19) {
        std::this_thread::yield();
    }
    go = true;
    for (auto& thread : threads) {
        thread.join();
    }
    const bool overlapped = stillAtTheGateway(*http);
    firstRequest.join();
    ASSERT_TRUE(overlapped) << "the 19 copies were not all answered while the first held the lock";
    EXPECT_EQ(statuses.count(409), 19u) << "every copy met the request in progress";
    EXPECT_EQ(first.status, 201);
    const Reply replay = postCheckout(*http, "storm");
    EXPECT_TRUE(replay.replayed());
    EXPECT_EQ(replay.body, first.body) << "the copies' retries get the same response";
    EXPECT_EQ(orders(), 1);
    EXPECT_EQ(charges(), 1);
}

TEST_P(CheckoutEndToEndTest, ADuplicateWhileTheGatewayIsSlowGets409WithRetryAfterThenTheReplay)
{
    auto server = startServer();
    auto http = server->client();
    ASSERT_EQ(postJson(*http, "/_debug/faults", R"({"fault":"gateway-slow","delay_ms":3000})").status, 200);
    Reply first;
    std::atomic<bool> firstDone {false};
    std::thread firstRequest([&] {
        first = postCheckout(*server->client(), "k1");
        firstDone = true;
    });
    // The order phase commits before the gateway is called: once it shows with the lock, the first request is at
    // the gateway.
    ASSERT_TRUE(waitUntilAtTheGateway(*http, firstDone));
    const Reply duplicate = postCheckout(*http, "k1");
    const bool overlapped = stillAtTheGateway(*http);
    firstRequest.join();
    ASSERT_TRUE(overlapped) << "the duplicate was not answered while the first held the lock";
    EXPECT_EQ(duplicate.status, 409);
    EXPECT_EQ(duplicate.header("Retry-After"), "1");
    EXPECT_EQ(duplicate.problemType(), "/problems/request-in-progress");
    EXPECT_EQ(first.status, 201);
    const Reply replay = postCheckout(*http, "k1");
    EXPECT_TRUE(replay.replayed());
    EXPECT_EQ(replay.body, first.body);
    EXPECT_EQ(charges(), 1);
}

TEST_P(CheckoutEndToEndTest, ADeclineIsAStored402)
{
    auto server = startServer();
    auto http = server->client();
    ASSERT_EQ(postJson(*http, "/_debug/faults", R"({"fault":"gateway-decline"})").status, 200);
    const Reply declined = postCheckout(*http, "k1");
    EXPECT_EQ(declined.status, 402);
    EXPECT_EQ(declined.problemType(), "/problems/payment-declined");
    EXPECT_EQ(declined.header("Content-Type"), "application/problem+json");
    const Reply again = postCheckout(*http, "k1");
    EXPECT_EQ(again.status, 402);
    EXPECT_TRUE(again.replayed());
    EXPECT_EQ(again.body, declined.body);
    EXPECT_EQ(scalar("SELECT stock FROM products WHERE id = 'kniha'"), 100);
    EXPECT_EQ(get(*http, "/orders/" + declined.field("order_id"), kA).field("status"), "payment_failed");
}

TEST_P(CheckoutEndToEndTest, AGatewayTimeoutIsA503AndTheRetryFindsTheSameCharge)
{
    auto server = startServer();
    auto http = server->client();
    ASSERT_EQ(postJson(*http, "/_debug/faults", R"({"fault":"gateway-timeout"})").status, 200);
    const Reply lost = postCheckout(*http, "k1");
    EXPECT_EQ(lost.status, 503);
    EXPECT_EQ(lost.header("Retry-After"), "1");
    EXPECT_EQ(lost.problemType(), "/problems/gateway-timeout");
    EXPECT_EQ(postCheckout(*http, "k1").status, 201);
    EXPECT_EQ(charges(), 1);
    EXPECT_EQ(payments(), 1);
}

TEST_P(CheckoutEndToEndTest, DuplicateAndTwinWebhooksOverHttpChangeTheOrderOnce)
{
    auto server = startServer();
    auto http = server->client();
    ASSERT_EQ(postJson(*http, "/_debug/faults", R"({"fault":"webhook-duplicate"})").status, 200);
    EXPECT_EQ(postCheckout(*http, "k1").status, 201);
    ASSERT_EQ(postJson(*http, "/_debug/faults", R"({"fault":"webhook-twin"})").status, 200);
    EXPECT_EQ(postCheckout(*http, "k2").status, 201);

    // The webhooks come from the gateway's own delivery thread, after the checkouts answered.
    EXPECT_TRUE(waitUntil([&] {
        return scalar("SELECT count(*) FROM webhook_events") == 3 &&
            get(*http, "/metrics").body.find(R"(outcome="webhook-duplicate")") != std::string::npos;
    }));
    EXPECT_EQ(paidChanges(), 2) << "one state change per order";
    EXPECT_EQ(payments(), 2) << "one payment per charge";
    EXPECT_EQ(scalar("SELECT count(*) FROM webhook_events"), 3);
    // Whether the checkout's own phase or a webhook moved an order to paid first is a race now; never both.
    EXPECT_EQ(scalar("SELECT count(*) FROM webhook_events WHERE effect IN ('applied', 'no-change')"), 3);
    EXPECT_LE(scalar("SELECT count(*) FROM webhook_events WHERE effect = 'applied'"), 2);
    const Reply metrics = get(*http, "/metrics");
    EXPECT_NE(
        metrics.body.find(R"(onceorder_requests_total{outcome="webhook-duplicate",route="POST /webhooks/payments"} 1)"),
        std::string::npos);

    // The same event sent again from outside, correctly signed: recognised by its id.
    const std::string event = gatewayText("SELECT body FROM gateway_events ORDER BY id LIMIT 1");
    const std::string secret = text("SELECT value FROM server_meta WHERE name = 'webhook_secret'");
    EXPECT_EQ(secret.rfind("whsec_", 0), 0u) << "made for this database";
    const auto nowMs =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    const std::string signature = onceorder::server::StubPaymentGateway::signature(secret, event, nowMs);
    const Reply redelivered = postWebhook(*http, event, signature);
    EXPECT_EQ(redelivered.status, 200);
    EXPECT_EQ(redelivered.field("result"), "duplicate");
    const Reply forged = postWebhook(*http, event, "t=1,v1=" + std::string(64, '0'));
    EXPECT_EQ(forged.status, 401);
    EXPECT_EQ(forged.problemType(), "/problems/invalid-webhook-signature");
    const Reply published = postWebhook(
        *http, event, onceorder::server::StubPaymentGateway::signature("whsec_onceorder_demo", event, nowMs));
    EXPECT_EQ(published.status, 401) << "the secret that used to be published in the source signs nothing";
    const Reply replayed =
        postWebhook(*http, event, onceorder::server::StubPaymentGateway::signature(secret, event, nowMs - 301'000));
    EXPECT_EQ(replayed.status, 401) << "a body signed more than 5 minutes ago is a replay";
    EXPECT_EQ(paidChanges(), 2);
}

TEST_P(CheckoutEndToEndTest, CheckoutValidatesLikeOrdersAndNeedsAPaymentMethod)
{
    auto server = startServer();
    auto http = server->client();
    const Reply noMethod = postCheckout(*http, "k1", R"({"product":"kniha","quantity":1})");
    EXPECT_EQ(noMethod.status, 400);
    EXPECT_EQ(noMethod.problemType(), "/problems/invalid-payment-method");
    const Reply noKey =
        toReply(http->Post("/checkout", {{"Authorization", std::string("Bearer ") + kA}}, kPay, "application/json"));
    EXPECT_EQ(noKey.status, 400);
    EXPECT_EQ(noKey.problemType(), "/problems/missing-idempotency-key");
    EXPECT_EQ(postCheckout(*http, "k1", R"({"product":"auto","quantity":1,"payment_method":"card"})").problemType(),
              "/problems/unknown-product");
    EXPECT_EQ(scalar("SELECT count(*) FROM checkout_keys"), 0) << "validation failures do not use the key";
    EXPECT_EQ(postCheckout(*http, "k1").status, 201);
    EXPECT_EQ(postCheckout(*http, "k1", R"({"product":"kniha","quantity":2,"payment_method":"card"})").status, 422);
}

TEST_P(CheckoutEndToEndTest, AsManyCheckoutsAsWorkersDoNotWaitForTheirOwnWebhooks)
{
    // One worker: the checkout holds it while the gateway charges. A webhook sent from inside the charge would wait
    // for a free worker that cannot come (5 s, the delivery's read timeout) and then count as not delivered.
    auto server = startServer({"--threads", "1"});
    auto http = server->client();
    const auto started = std::chrono::steady_clock::now();
    const Reply paid = postCheckout(*http, "k1");
    const auto took = std::chrono::steady_clock::now() - started;
    EXPECT_EQ(paid.status, 201) << paid.body;
    EXPECT_LT(took, std::chrono::seconds(3)) << "the checkout did not wait for its own webhook";
    EXPECT_TRUE(waitUntil([&] { return scalar("SELECT count(*) FROM webhook_events") == 1; }))
        << "the webhook arrived after the checkout freed the worker";
    EXPECT_TRUE(waitUntil([&] {
        return gatewayScalar("SELECT count(*) FROM gateway_deliveries WHERE delivered_at IS NOT NULL") == 1;
    })) << "and the gateway saw it acknowledged";
    EXPECT_EQ(payments(), 1);
}

INSTANTIATE_TEST_SUITE_P(Databases, CheckoutEndToEndTest, kEveryDatabase, backendName);
