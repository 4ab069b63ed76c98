// POST /checkout's phases in process, on fresh SQLite files, with an injected clock: crashes between phases
// (thrown instead of killing the process), the lock timeout, the completer, the gateway's behaviours and the
// webhooks, all without sleeping.
#include "checkout/CheckoutService.h"
#include "checkout/CheckoutCompleter.h"
#include "checkout/CheckoutReaper.h"
#include "checkout/StubPaymentGateway.h"
#include "checkout/WebhookHandler.h"
#include "storage/sqlite/SqliteSqlTx.h"
#include "storage/sqlite/Store.h"
#include "support/LatchedGateway.h"
#include "support/ServerProcess.h"
#include "teaching/CrashPoints.h"
#include "teaching/TeachingLessons.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <gtest/gtest.h>

#include <future>
#include <set>
#include <stdexcept>
#include <thread>

using namespace onceorder::server;
using onceorder::test::LatchedGateway;
using onceorder::test::TempDir;

namespace {

constexpr std::int64_t kStart = 1'790'000'000'000;
constexpr std::chrono::seconds kTtl {3600};
constexpr std::chrono::milliseconds kLockTimeout {30'000};
constexpr const char* kOne = R"({"product":"kniha","quantity":2,"payment_method":"card"})";
constexpr const char* kSecret = "whsec_test";

// What a crash-after-* fault does in process: leave, with whatever the phases committed.
struct SimulatedCrash
{
};

class CheckoutServiceTest : public ::testing::Test
{
protected:
    CheckoutServiceTest()
    {
        service.observePhases(std::make_unique<CrashPoints>(faults, [] { throw SimulatedCrash {}; }));
        gateway.setWebhookSink([this](const std::string& body, const std::string& signature) {
            webhookResults.push_back(webhooks.handle(body, signature).body);
            return true;
        });
    }

    OrderResponse checkout(const std::string& key, std::string_view body = kOne, const Client* client = nullptr)
    {
        return checkoutWith(service, key, body, client);
    }
    OrderResponse checkoutWith(CheckoutService& with, const std::string& key, std::string_view body,
                               const Client* client = nullptr)
    {
        auto command = parseCheckoutCommand(body);
        EXPECT_TRUE(std::holds_alternative<CheckoutCommand>(command)) << body;
        return with.checkout(client ? *client : a, key, std::get<CheckoutCommand>(command));
    }

    // One pass of the gateway's outbox, as its delivery thread would run it: the webhooks are never delivered
    // from inside the charge.
    int deliver() { return gateway.webhooks().deliverDue(); }
    std::string sign(const std::string& body) { return StubPaymentGateway::signature(kSecret, body, clock.nowMs()); }

    long long scalar(const std::string& sql)
    {
        auto db = store.lease();
        return db->execAndGet(sql).getInt64();
    }
    std::string text(const std::string& sql)
    {
        auto db = store.lease();
        return db->execAndGet(sql).getString();
    }
    long long orders() { return scalar("SELECT count(*) FROM orders"); }
    long long payments() { return scalar("SELECT count(*) FROM payments"); }
    long long paidChanges() { return scalar("SELECT count(*) FROM order_status_changes WHERE to_status = 'paid'"); }
    long long stock() { return scalar("SELECT stock FROM products WHERE id = 'kniha'"); }
    void arm(FaultKind kind, int count = 1) { faults.arm(ArmedFault {kind, count, 0, 1}); }
    // Runs `change` on each of the store's four pooled connections (all leased at once, so each is a different one).
    template<typename Fn>
    void onEveryConnection(Fn change)
    {
        auto first = store.lease();
        auto second = store.lease();
        auto third = store.lease();
        auto fourth = store.lease();
        for (Store::Lease* lease : {&first, &second, &third, &fourth}) {
            change(**lease);
        }
    }

    TempDir dir;
    Store store {dir.file("server.db"), Synchronous::Full, 4};
    Faults faults;
    ManualClock clock {kStart};
    StubPaymentGateway gateway {sqliteGatewayDatabase(dir.file("server.gateway.db")), faults, clock, kSecret};
    CheckoutService service {store.sql(), store.instanceId(), gateway, faults, clock, kTtl, kLockTimeout};
    WebhookHandler webhooks {store.sql(), store.instanceId(), clock, kSecret};
    std::vector<std::string> webhookResults;
    Client a {"A", false};
    Client b {"B", false};
};

} // namespace

TEST_F(CheckoutServiceTest, PhasesRunToAPaidOrderAndARetryReplaysTheFinalResponse)
{
    const OrderResponse first = checkout("k1");
    EXPECT_EQ(first.status, 201) << first.body;
    EXPECT_EQ(first.outcome, "created");
    EXPECT_NE(first.body.find(R"("status":"paid")"), std::string::npos) << first.body;
    EXPECT_NE(first.body.find(R"("charge_id":"ch_1","amount":39800,"method":"card")"), std::string::npos);
    EXPECT_EQ(text("SELECT recovery_point FROM checkout_keys"), "finished");
    EXPECT_EQ(text("SELECT status FROM orders"), "paid");
    EXPECT_EQ(gateway.chargeCount(), 1);
    EXPECT_EQ(payments(), 1);
    EXPECT_EQ(paidChanges(), 1);
    EXPECT_EQ(stock(), 98);

    clock.advanceMs(5000);
    const OrderResponse retry = checkout("k1", R"({"payment_method":"card","quantity":2.0,"product":"kniha"})");
    EXPECT_TRUE(retry.replayed);
    EXPECT_EQ(retry.status, 201);
    EXPECT_EQ(retry.body, first.body);
    EXPECT_EQ(gateway.chargeCount(), 1);
    EXPECT_EQ(orders(), 1);
}

TEST_F(CheckoutServiceTest, AnotherPayloadUnderTheKeyIs422AndAnotherClientIsIndependent)
{
    checkout("k1");
    const OrderResponse other = checkout("k1", R"({"product":"kniha","quantity":2,"payment_method":"invoice"})");
    EXPECT_EQ(other.status, 422);
    EXPECT_EQ(other.outcome, "mismatch");
    const OrderResponse fromB = checkout("k1", kOne, &b);
    EXPECT_EQ(fromB.status, 201);
    EXPECT_FALSE(fromB.replayed);
    EXPECT_EQ(orders(), 2);
    EXPECT_EQ(gateway.chargeCount(), 2) << "each key row has its own gateway key";
}

TEST_F(CheckoutServiceTest, TheGatewayKeyComesFromOurRowNotFromTheClientsKey)
{
    checkout("client-key-1");
    const std::string key = service.gatewayKey(scalar("SELECT id FROM checkout_keys"));
    EXPECT_EQ(key.find("client-key-1"), std::string::npos);
    EXPECT_EQ(key, "onceorder-" + store.instanceId() + "-checkout-1");
    EXPECT_NE(gateway.stateJson().find(key), std::string::npos);
}

namespace {

struct Boundary
{
    FaultKind fault;
    const char* recoveryPointAfterCrash;
};

class CheckoutCrashTest : public CheckoutServiceTest, public ::testing::WithParamInterface<Boundary>
{
};

std::string boundaryName(const ::testing::TestParamInfo<Boundary>& info)
{
    std::string name(faultKindName(info.param.fault));
    std::erase(name, '-');
    return name;
}

} // namespace

INSTANTIATE_TEST_SUITE_P(EachPhaseBoundary, CheckoutCrashTest,
                         ::testing::Values(Boundary {FaultKind::CrashAfterStarted, "started"},
                                           Boundary {FaultKind::CrashAfterOrderCreated, "order_created"},
                                           Boundary {FaultKind::CrashAfterCharge, "order_created"},
                                           Boundary {FaultKind::CrashAfterPaymentCharged, "payment_charged"},
                                           Boundary {FaultKind::CrashAfterFinished, "finished"}),
                         boundaryName);

TEST_P(CheckoutCrashTest, ARetryAfterTheLockTimeoutResumesAndChargesOnce)
{
    arm(GetParam().fault);
    EXPECT_THROW(checkout("k1"), SimulatedCrash);
    EXPECT_EQ(text("SELECT recovery_point FROM checkout_keys"), GetParam().recoveryPointAfterCrash);

    const bool finished = GetParam().fault == FaultKind::CrashAfterFinished;
    clock.advanceMs(kLockTimeout.count() - 1);
    const OrderResponse early = checkout("k1");
    if (finished) {
        EXPECT_TRUE(early.replayed) << "the answer was stored; only its delivery was lost";
    } else {
        EXPECT_EQ(early.status, 409) << "the crashed request still holds the lock";
        EXPECT_EQ(early.retryAfterSeconds, 1);
    }

    clock.advanceMs(1);
    const OrderResponse retry = checkout("k1");
    EXPECT_EQ(retry.status, 201) << retry.body;
    EXPECT_EQ(retry.outcome, finished ? "replayed" : "resumed");
    EXPECT_EQ(orders(), 1);
    EXPECT_EQ(gateway.chargeCount(), 1) << "exactly one charge at the gateway";
    EXPECT_EQ(payments(), 1);
    EXPECT_EQ(paidChanges(), 1);
    EXPECT_EQ(stock(), 98);

    const OrderResponse again = checkout("k1");
    EXPECT_TRUE(again.replayed);
    EXPECT_EQ(again.body, retry.body) << "the client sees the same final response";
}

TEST_P(CheckoutCrashTest, TheCompleterFinishesAnAbandonedRequestOnlyAfterTheLockTimeout)
{
    arm(GetParam().fault);
    EXPECT_THROW(checkout("k1"), SimulatedCrash);
    const bool finished = GetParam().fault == FaultKind::CrashAfterFinished;

    EXPECT_EQ(CheckoutCompleter(service).completeAbandoned().completed, 0)
        << "a fresh lock may belong to a request still running";
    clock.advanceMs(kLockTimeout.count());
    EXPECT_EQ(CheckoutCompleter(service).completeAbandoned().completed, finished ? 0 : 1);
    EXPECT_EQ(text("SELECT recovery_point FROM checkout_keys"), "finished");
    EXPECT_EQ(CheckoutCompleter(service).completeAbandoned().completed, 0);

    const OrderResponse retry = checkout("k1");
    EXPECT_TRUE(retry.replayed) << "the client, coming back, gets what the completer stored";
    EXPECT_EQ(retry.status, 201);
    EXPECT_EQ(retry.body, text("SELECT response_body FROM checkout_keys"));
    EXPECT_EQ(orders(), 1);
    EXPECT_EQ(gateway.chargeCount(), 1);
    EXPECT_EQ(payments(), 1);
}

TEST_F(CheckoutServiceTest, LocksLeftByADeadProcessAreReleasedAtStart)
{
    arm(FaultKind::CrashAfterOrderCreated);
    EXPECT_THROW(checkout("k1"), SimulatedCrash);
    EXPECT_EQ(checkout("k1").status, 409);
    EXPECT_EQ(CheckoutReaper(service.database()).releaseLocks(), 1);
    EXPECT_EQ(checkout("k1").status, 201) << "no need to wait for the lock timeout after a restart";
    EXPECT_EQ(gateway.chargeCount(), 1);
}

TEST_F(CheckoutServiceTest, ADuplicateWhileTheFirstIsAtTheGatewayGets409ThenTheReplay)
{
    LatchedGateway latched(gateway);
    CheckoutService slow(store.sql(), store.instanceId(), latched, faults, clock, kTtl, kLockTimeout);
    slow.observePhases(std::make_unique<CrashPoints>(faults));
    OrderResponse first;
    std::thread firstRequest([&] { first = checkoutWith(slow, "k1", kOne); });
    latched.waitUntilEntered();

    const OrderResponse duplicate = checkout("k1");
    EXPECT_EQ(duplicate.status, 409);
    EXPECT_EQ(duplicate.outcome, "in-progress");
    EXPECT_EQ(duplicate.retryAfterSeconds, 1);
    EXPECT_NE(duplicate.body.find("/problems/request-in-progress"), std::string::npos);
    EXPECT_EQ(CheckoutCompleter(service).completeAbandoned().completed, 0)
        << "the completer leaves a live lock alone too";

    latched.release();
    firstRequest.join();
    EXPECT_EQ(first.status, 201);
    const OrderResponse replay = checkout("k1");
    EXPECT_TRUE(replay.replayed);
    EXPECT_EQ(replay.body, first.body);
    EXPECT_EQ(gateway.chargeCount(), 1);
}

TEST_F(CheckoutServiceTest, ADeclineIsAStored402ThatCancelsTheOrderAndGivesTheStockBack)
{
    arm(FaultKind::GatewayDecline);
    const OrderResponse declined = checkout("k1");
    EXPECT_EQ(declined.status, 402);
    EXPECT_NE(declined.body.find("/problems/payment-declined"), std::string::npos);
    EXPECT_NE(declined.body.find(R"("order_id":1)"), std::string::npos);
    EXPECT_EQ(text("SELECT status FROM orders"), "payment_failed");
    EXPECT_EQ(stock(), 100);
    EXPECT_EQ(payments(), 0);

    const OrderResponse again = checkout("k1");
    EXPECT_TRUE(again.replayed);
    EXPECT_EQ(again.status, 402);
    EXPECT_EQ(again.body, declined.body);
    EXPECT_EQ(stock(), 100) << "the stock came back once";
    EXPECT_EQ(gateway.chargeCount(), 1) << "the gateway remembers its decline; no new attempt";
}

TEST_F(CheckoutServiceTest, AGatewayTimeoutKeepsTheOrderAndTheRetryFindsTheSameCharge)
{
    arm(FaultKind::GatewayTimeout);
    const OrderResponse lost = checkout("k1");
    EXPECT_EQ(lost.status, 503);
    EXPECT_EQ(lost.retryAfterSeconds, 1);
    EXPECT_NE(lost.body.find("/problems/gateway-timeout"), std::string::npos);
    EXPECT_EQ(text("SELECT recovery_point FROM checkout_keys"), "order_created");
    EXPECT_EQ(scalar("SELECT locked_at IS NULL FROM checkout_keys"), 1) << "released: the retry need not wait";
    EXPECT_EQ(gateway.chargeCount(), 1) << "the gateway did charge";
    EXPECT_EQ(deliver(), 1);
    EXPECT_EQ(text("SELECT status FROM orders"), "paid") << "its webhook said so";

    const OrderResponse retry = checkout("k1");
    EXPECT_EQ(retry.status, 201);
    EXPECT_EQ(gateway.chargeCount(), 1);
    EXPECT_EQ(payments(), 1);
    EXPECT_EQ(paidChanges(), 1);
}

TEST_F(CheckoutServiceTest, AGatewayFailureIsA503AndNothingIsCharged)
{
    arm(FaultKind::GatewayFail);
    const OrderResponse failed = checkout("k1");
    EXPECT_EQ(failed.status, 503);
    EXPECT_NE(failed.body.find("/problems/gateway-unavailable"), std::string::npos);
    EXPECT_EQ(gateway.chargeCount(), 0);
    EXPECT_EQ(text("SELECT status FROM orders"), "pending");
    EXPECT_EQ(checkout("k1").status, 201);
    EXPECT_EQ(orders(), 1);
    EXPECT_EQ(gateway.chargeCount(), 1);
}

TEST_F(CheckoutServiceTest, OutOfStockIsStoredBeforeAnyCharge)
{
    const OrderResponse refused = checkout("k1", R"({"product":"hrnek","quantity":51,"payment_method":"card"})");
    EXPECT_EQ(refused.status, 422);
    EXPECT_NE(refused.body.find("/problems/out-of-stock"), std::string::npos);
    EXPECT_EQ(orders(), 0);
    EXPECT_EQ(gateway.chargeCount(), 0);
    EXPECT_TRUE(checkout("k1", R"({"product":"hrnek","quantity":51,"payment_method":"card"})").replayed);
}

TEST_F(CheckoutServiceTest, ADuplicatedWebhookAndTwinEventsChangeTheOrderOnce)
{
    arm(FaultKind::WebhookDuplicate);
    EXPECT_EQ(checkout("k1").status, 201);
    EXPECT_TRUE(webhookResults.empty()) << "nothing is delivered from inside the charge";
    EXPECT_EQ(deliver(), 2);
    ASSERT_EQ(webhookResults.size(), 2u);
    EXPECT_NE(webhookResults[0].find(R"("result":"no-change")"), std::string::npos)
        << "the checkout had recorded the charge already: " << webhookResults[0];
    EXPECT_NE(webhookResults[1].find(R"("result":"duplicate")"), std::string::npos) << webhookResults[1];

    arm(FaultKind::WebhookTwin);
    EXPECT_EQ(checkout("k2").status, 201);
    EXPECT_EQ(deliver(), 2);
    ASSERT_EQ(webhookResults.size(), 4u);
    EXPECT_NE(webhookResults[2].find(R"("result":"no-change")"), std::string::npos) << webhookResults[2];
    EXPECT_NE(webhookResults[3].find(R"("result":"no-change")"), std::string::npos) << webhookResults[3];

    EXPECT_EQ(paidChanges(), 2) << "one pending -> paid per order, whoever came first";
    EXPECT_EQ(payments(), 2) << "one payment per charge";
    EXPECT_EQ(scalar("SELECT count(*) FROM webhook_events"), 3) << "one event, and the two twins";
}

TEST_F(CheckoutServiceTest, WebhooksNeedTheSignatureAndAKnownReference)
{
    const std::string body = R"({"id":"evt_x","type":"charge.succeeded","charge_id":"ch_9","reference":"nope",)"
                             R"("amount":100})";
    EXPECT_EQ(webhooks.handle(body, "sha256=00").status, 401);
    EXPECT_EQ(webhooks.handle(body, StubPaymentGateway::signature("another secret", body, clock.nowMs())).status, 401);
    const OrderResponse unknown = webhooks.handle(body, sign(body));
    EXPECT_EQ(unknown.status, 422);
    EXPECT_NE(unknown.body.find("/problems/unknown-payment-reference"), std::string::npos);
    EXPECT_EQ(scalar("SELECT count(*) FROM webhook_events"), 0) << "a refused event is not remembered";
    const std::string notJson = "[1]";
    EXPECT_EQ(webhooks.handle(notJson, sign(notJson)).status, 400);
}

TEST_F(CheckoutServiceTest, FinishedExpiredKeysAreReapedAndUnfinishedOnesAreKept)
{
    checkout("done");
    arm(FaultKind::CrashAfterOrderCreated);
    EXPECT_THROW(checkout("abandoned"), SimulatedCrash);
    clock.advanceMs(std::chrono::milliseconds(kTtl).count());
    EXPECT_EQ(CheckoutReaper(service.database()).reapExpired(clock.nowMs(), 100), 1);
    EXPECT_EQ(scalar("SELECT count(*) FROM checkout_keys"), 1) << "the completer still owes this one an answer";
    EXPECT_EQ(CheckoutCompleter(service).completeAbandoned().completed, 1);
}

TEST_F(CheckoutServiceTest, TheCompleterHoldsTheLockWhileItWorksSoARetryMeanwhileGets409)
{
    arm(FaultKind::CrashAfterOrderCreated);
    EXPECT_THROW(checkout("k1"), SimulatedCrash);
    clock.advanceMs(kLockTimeout.count());

    LatchedGateway latched(gateway);
    CheckoutService completer(store.sql(), store.instanceId(), latched, faults, clock, kTtl, kLockTimeout);
    completer.observePhases(std::make_unique<CrashPoints>(faults));
    int completed = 0;
    std::thread completing([&] { completed = CheckoutCompleter(completer).completeAbandoned().completed; });
    latched.waitUntilEntered();
    EXPECT_EQ(checkout("k1").status, 409) << "the completer took the lock over; the retry waits its turn";
    latched.release();
    completing.join();
    EXPECT_EQ(completed, 1);
    EXPECT_TRUE(checkout("k1").replayed);
    EXPECT_EQ(gateway.chargeCount(), 1);
}

TEST_F(CheckoutServiceTest, ARequestOvertakenAfterItsLockTimedOutStopsAtItsNextPhase)
{
    LatchedGateway latched(gateway);
    CheckoutService slow(store.sql(), store.instanceId(), latched, faults, clock, kTtl, kLockTimeout);
    slow.observePhases(std::make_unique<CrashPoints>(faults));
    OrderResponse overtaken;
    std::thread first([&] { overtaken = checkoutWith(slow, "k1", kOne); });
    latched.waitUntilEntered();

    // The first request has been at the gateway for longer than the lock timeout: taken for abandoned.
    clock.advanceMs(kLockTimeout.count());
    const OrderResponse takeover = checkout("k1");
    EXPECT_EQ(takeover.status, 201);
    EXPECT_EQ(takeover.outcome, "resumed");

    latched.release();
    first.join();
    EXPECT_EQ(overtaken.status, 409) << "its phase finds the lock is no longer its own and writes nothing";
    EXPECT_EQ(gateway.chargeCount(), 1) << "both asked the gateway, under the same key";
    EXPECT_EQ(payments(), 1);
    EXPECT_EQ(paidChanges(), 1);
    const OrderResponse replay = checkout("k1");
    EXPECT_TRUE(replay.replayed);
    EXPECT_EQ(replay.body, takeover.body);
}

TEST_F(CheckoutServiceTest, ADeclinedCartCanBePaidAgainUnderANewKey)
{
    constexpr const char* kCart = R"({"cart_id":"cart-1","product":"kniha","quantity":2,"payment_method":"card"})";
    arm(FaultKind::GatewayDecline);
    EXPECT_EQ(checkout("k1", kCart).status, 402);

    const OrderResponse paid = checkout("k2", kCart);
    EXPECT_EQ(paid.status, 201) << "the declined order let go of its cart: " << paid.body;
    EXPECT_NE(paid.body.find(R"("order_id":2)"), std::string::npos) << paid.body;
    EXPECT_EQ(text("SELECT group_concat(status, ',') FROM (SELECT status FROM orders ORDER BY id)"),
              "payment_failed,paid");
    EXPECT_EQ(scalar("SELECT count(*) FROM orders WHERE cart_id = 'cart-1'"), 2) << "both still name their cart";
    EXPECT_EQ(stock(), 98);
    EXPECT_TRUE(checkout("k1", kCart).replayed) << "the declined key still answers its stored 402";
    EXPECT_EQ(checkout("k3", kCart).status, 422) << "the paid order holds the cart";

    OrderService orders(store.sql(), std::make_unique<TeachingLessons>(faults), clock, kTtl);
    auto command = parseOrderCommand(R"({"cart_id":"cart-1","product":"kniha","quantity":2})");
    const OrderResponse again = orders.placeOrder(a, "k4", std::get<OrderCommand>(command));
    EXPECT_EQ(again.status, 422);
    EXPECT_NE(again.body.find("/problems/cart-already-ordered"), std::string::npos) << again.body;
}

TEST_F(CheckoutServiceTest, ADatabaseFromBeforeTheFixFreesTheCartsOfFailedPaymentsWhenOpened)
{
    {
        auto db = store.lease();
        db->exec(
            "INSERT INTO orders (client_id, cart_id, cart_key, status, created_at) "
            "VALUES ('A', 'cart-old', 'cart-old', 'payment_failed', 1), ('A', 'cart-paid', 'cart-paid', 'paid', 1)");
    }
    Store reopened(dir.file("server.db"), Synchronous::Full, 1);
    EXPECT_EQ(scalar("SELECT count(*) FROM orders WHERE cart_key IS NOT NULL"), 1);
    EXPECT_EQ(text("SELECT cart_key FROM orders WHERE cart_key IS NOT NULL"), "cart-paid");
}

TEST_F(CheckoutServiceTest, ADeclinedCartCanBeOrderedWithoutPayingToo)
{
    arm(FaultKind::GatewayDecline);
    EXPECT_EQ(checkout("k1", R"({"cart_id":"cart-1","product":"kniha","quantity":2,"payment_method":"card"})").status,
              402);
    OrderService orders(store.sql(), std::make_unique<TeachingLessons>(faults), clock, kTtl);
    auto command = parseOrderCommand(R"({"cart_id":"cart-1","product":"kniha","quantity":2})");
    const OrderResponse placed = orders.placeOrder(a, "k2", std::get<OrderCommand>(command));
    EXPECT_EQ(placed.status, 201) << placed.body;
}

namespace {

// A gateway whose every charge takes `costMs` of the (manual) clock, and that notes the lock stamp each checkout
// row carries when its charge comes in.
class SlowClockGateway final : public PaymentGateway
{
public:
    SlowClockGateway(PaymentGateway& real, ManualClock& clock, Store& store, std::int64_t costMs)
        : m_real(real)
        , m_clock(clock)
        , m_store(store)
        , m_costMs(costMs)
    {
    }
    ChargeResult charge(const std::string& key, long long amount, const std::string& method) override
    {
        auto db = m_store.lease();
        const auto row = key.substr(key.rfind('-') + 1);
        stamps.push_back(
            {db->execAndGet("SELECT locked_at FROM checkout_keys WHERE id = " + row).getInt64(), m_clock.nowMs()});
        m_clock.advanceMs(m_costMs);
        return m_real.charge(key, amount, method);
    }
    std::vector<std::pair<std::int64_t, std::int64_t>> stamps; // (locked_at, now) per charge

private:
    PaymentGateway& m_real;
    ManualClock& m_clock;
    Store& m_store;
    std::int64_t m_costMs;
};

} // namespace

TEST_F(CheckoutServiceTest, OneBrokenRowDoesNotStarveTheCompletersPass)
{
    arm(FaultKind::CrashAfterOrderCreated, 2);
    EXPECT_THROW(checkout("k1"), SimulatedCrash);
    EXPECT_THROW(checkout("k2"), SimulatedCrash);
    {
        auto db = store.lease();
        db->exec("UPDATE checkout_keys SET request_json = '{not json' WHERE idem_key = 'k1'");
    }
    clock.advanceMs(kLockTimeout.count());
    const auto pass = CheckoutCompleter(service).completeAbandoned();
    EXPECT_EQ(pass.completed, 1) << "the row after the broken one is finished";
    EXPECT_EQ(pass.failed, 1);
    EXPECT_EQ(text("SELECT recovery_point FROM checkout_keys WHERE idem_key = 'k2'"), "finished");
    EXPECT_EQ(text("SELECT status FROM orders WHERE idem_key = 'k2'"), "paid");

    const auto next = CheckoutCompleter(service).completeAbandoned();
    EXPECT_EQ(next.failed, 0) << "the broken row keeps its lock: not retried before the lock timeout";
    clock.advanceMs(kLockTimeout.count());
    EXPECT_EQ(CheckoutCompleter(service).completeAbandoned().failed, 1);
}

TEST_F(CheckoutServiceTest, TheCompleterStampsEachRowWhenItTakesItNotWhenThePassBegan)
{
    arm(FaultKind::CrashAfterOrderCreated, 2);
    EXPECT_THROW(checkout("k1"), SimulatedCrash);
    EXPECT_THROW(checkout("k2"), SimulatedCrash);
    clock.advanceMs(kLockTimeout.count());

    // The first row keeps the completer at the gateway for longer than the lock timeout.
    SlowClockGateway slow(gateway, clock, store, kLockTimeout.count() + 1);
    CheckoutService completer(store.sql(), store.instanceId(), slow, faults, clock, kTtl, kLockTimeout);
    completer.observePhases(std::make_unique<CrashPoints>(faults, [] { throw SimulatedCrash {}; }));
    EXPECT_EQ(CheckoutCompleter(completer).completeAbandoned().completed, 2);
    ASSERT_EQ(slow.stamps.size(), 2u);
    EXPECT_EQ(slow.stamps[1].first, slow.stamps[1].second)
        << "the second row's lock is as young as the moment it was taken, not stale at birth";
}

TEST_F(CheckoutServiceTest, ACheckoutFinishedLateKeepsItsAnswerForAWholeTtl)
{
    arm(FaultKind::CrashAfterOrderCreated);
    EXPECT_THROW(checkout("k1"), SimulatedCrash);
    // A gateway outage longer than the key TTL; then the completer finishes the request.
    clock.advanceMs(std::chrono::milliseconds(kTtl).count() + 1);
    EXPECT_EQ(CheckoutCompleter(service).completeAbandoned().completed, 1);
    EXPECT_EQ(CheckoutReaper(service.database()).reapExpired(clock.nowMs(), 100), 0)
        << "the answer was just stored: not reaped at once";

    const OrderResponse retry = checkout("k1");
    EXPECT_TRUE(retry.replayed) << "the client's retry finds the answer, not a new request";
    EXPECT_EQ(orders(), 1);
    EXPECT_EQ(gateway.chargeCount(), 1);
    clock.advanceMs(std::chrono::milliseconds(kTtl).count());
    EXPECT_EQ(CheckoutReaper(service.database()).reapExpired(clock.nowMs(), 100), 1);
}

TEST_F(CheckoutServiceTest, TheChargeOnlyQueuesItsWebhookTheOutboxDeliversIt)
{
    EXPECT_EQ(checkout("k1").status, 201);
    EXPECT_TRUE(webhookResults.empty()) << "the request that charged never waits for its own webhook";
    EXPECT_EQ(gateway.webhooks().pendingCount(), 1);
    EXPECT_EQ(deliver(), 1);
    EXPECT_EQ(webhookResults.size(), 1u);
    EXPECT_EQ(gateway.webhooks().pendingCount(), 0);
    EXPECT_EQ(deliver(), 0) << "acknowledged: not delivered again";
}

TEST_F(CheckoutServiceTest, AnUnacknowledgedWebhookIsRedeliveredWithBackoffAcrossARestart)
{
    int attempts = 0;
    gateway.setWebhookSink([&](const std::string&, const std::string&) {
        ++attempts;
        return false; // the server is down
    });
    EXPECT_EQ(checkout("k1").status, 201);
    EXPECT_EQ(deliver(), 0);
    EXPECT_EQ(attempts, 1);
    EXPECT_EQ(deliver(), 0);
    EXPECT_EQ(attempts, 1) << "not due again before the first interval";
    clock.advanceMs(WebhookOutbox::Schedule {}.first.count());
    EXPECT_EQ(deliver(), 0);
    EXPECT_EQ(attempts, 2);
    clock.advanceMs(WebhookOutbox::Schedule {}.first.count());
    EXPECT_EQ(deliver(), 0);
    EXPECT_EQ(attempts, 2) << "the second interval is twice the first";

    // The gateway restarts on its file: the delivery is still owed.
    StubPaymentGateway restarted(sqliteGatewayDatabase(dir.file("server.gateway.db")), faults, clock, kSecret);
    restarted.setWebhookSink([this](const std::string& body, const std::string& signature) {
        webhookResults.push_back(webhooks.handle(body, signature).body);
        return true;
    });
    EXPECT_EQ(restarted.webhooks().pendingCount(), 1);
    clock.advanceMs(WebhookOutbox::Schedule {}.first.count());
    EXPECT_EQ(restarted.webhooks().deliverDue(), 1);
    ASSERT_EQ(webhookResults.size(), 1u);
    EXPECT_NE(webhookResults[0].find(R"("result":"no-change")"), std::string::npos) << webhookResults[0];
    EXPECT_EQ(restarted.webhooks().pendingCount(), 0);
}

TEST_F(CheckoutServiceTest, TheRedeliveryScheduleDoublesUpToItsCapAndEndsAtItsHorizon)
{
    const WebhookOutbox::Schedule schedule {std::chrono::milliseconds(1000), std::chrono::milliseconds(4000),
                                            std::chrono::milliseconds(10'000)};
    EXPECT_EQ(schedule.delayAfter(1).count(), 1000);
    EXPECT_EQ(schedule.delayAfter(2).count(), 2000);
    EXPECT_EQ(schedule.delayAfter(3).count(), 4000);
    EXPECT_EQ(schedule.delayAfter(30).count(), 4000);

    TempDir other;
    StubPaymentGateway shortLived(sqliteGatewayDatabase(other.file("gateway.db")), faults, clock, kSecret, schedule);
    int attempts = 0;
    shortLived.setWebhookSink([&](const std::string&, const std::string&) {
        ++attempts;
        return false;
    });
    ASSERT_TRUE(std::holds_alternative<ChargeSucceeded>(shortLived.charge("g1", 100, "card")));
    // Attempts at 0, 1, 3 and 7 s; the next would be at 11 s, past the 10 s horizon: given up.
    for (int second = 0; second <= 12; ++second) {
        shortLived.webhooks().deliverDue();
        clock.advanceMs(1000);
    }
    EXPECT_EQ(attempts, 4);
    EXPECT_EQ(shortLived.webhooks().pendingCount(), 0);
}

TEST_F(CheckoutServiceTest, ALostAcknowledgementIsRedeliveredAndAppliedOnce)
{
    arm(FaultKind::WebhookAckLost);
    EXPECT_EQ(checkout("k1").status, 201);
    EXPECT_EQ(deliver(), 0) << "it arrived, but its 200 was lost";
    EXPECT_EQ(webhookResults.size(), 1u);
    clock.advanceMs(WebhookOutbox::Schedule {}.first.count());
    EXPECT_EQ(deliver(), 1);
    ASSERT_EQ(webhookResults.size(), 2u);
    EXPECT_NE(webhookResults[1].find(R"("result":"duplicate")"), std::string::npos) << webhookResults[1];
    EXPECT_EQ(scalar("SELECT count(*) FROM webhook_events"), 1);
    EXPECT_EQ(payments(), 1);
    EXPECT_EQ(paidChanges(), 1);
}

TEST_F(CheckoutServiceTest, TheSignatureCarriesATimestampAndOldBodiesAreRefused)
{
    const std::string body = R"({"id":"evt_x","type":"something.else"})";
    const auto at = [&](std::int64_t offsetMs) {
        return webhooks.handle(body, StubPaymentGateway::signature(kSecret, body, clock.nowMs() + offsetMs)).status;
    };
    EXPECT_EQ(at(-301'000), 401) << "older than the 5 minute tolerance: a replay";
    EXPECT_EQ(at(+301'000), 401);
    EXPECT_EQ(at(-299'000), 200);
    const std::string signature = sign(body);
    EXPECT_EQ(signature.rfind("t=" + std::to_string(clock.nowMs() / 1000) + ",v1=", 0), 0u) << signature;
    EXPECT_EQ(webhooks.handle(body, "v1=" + signature.substr(signature.find("v1=") + 3)).status, 401) << "no timestamp";
    EXPECT_EQ(webhooks.handle(body + " ", signature).status, 401) << "the body is signed";
    EXPECT_EQ(webhooks.handle(body, "t=1," + signature.substr(signature.find("v1="))).status, 401)
        << "the timestamp is signed: moving it forward breaks the signature";
}

TEST_F(CheckoutServiceTest, EventIdsAreRandomSoNoSignedEventCanTakeTheNextOnesId)
{
    arm(FaultKind::WebhookTwin);
    EXPECT_EQ(checkout("k1").status, 201);
    EXPECT_EQ(deliver(), 2);
    auto db = store.lease();
    SQLite::Statement ids(*db, "SELECT event_id FROM webhook_events");
    std::set<std::string> seen;
    while (ids.executeStep()) {
        const std::string id = ids.getColumn(0).getString();
        EXPECT_EQ(id.size(), 4u + 24u) << id;
        EXPECT_EQ(id.rfind("evt_", 0), 0u) << id;
        EXPECT_EQ(id.find_first_not_of("0123456789abcdef", 4), std::string::npos) << id;
        seen.insert(id);
    }
    EXPECT_EQ(seen.size(), 2u);
    EXPECT_EQ(seen.count("evt_1") + seen.count("evt_2"), 0u);
}

TEST_F(CheckoutServiceTest, RedeliveriesAreRecognisedPerSourceAndByType)
{
    const std::string noise = R"({"id":"evt_same","type":"customer.updated"})";
    EXPECT_NE(webhooks.handle(noise, sign(noise)).body.find(R"("result":"ignored")"), std::string::npos);
    EXPECT_NE(webhooks.handle(noise, sign(noise)).body.find(R"("result":"duplicate")"), std::string::npos);

    WebhookHandler otherSender(store.sql(), store.instanceId(), clock, kSecret, "another-gateway");
    EXPECT_NE(otherSender.handle(noise, sign(noise)).body.find(R"("result":"ignored")"), std::string::npos)
        << "another sender's evt_same is another event";

    const std::string sameIdOtherType = R"({"id":"evt_same","type":"charge.refunded"})";
    const OrderResponse clash = webhooks.handle(sameIdOtherType, sign(sameIdOtherType));
    EXPECT_EQ(clash.status, 400) << "the same id with another type is no redelivery: " << clash.body;
    EXPECT_EQ(scalar("SELECT count(*) FROM webhook_events"), 2);
}

TEST_F(CheckoutServiceTest, RememberedEventsArePrunedAfterTheirRetention)
{
    const std::string event = R"({"id":"evt_old","type":"customer.updated"})";
    EXPECT_EQ(webhooks.handle(event, sign(event)).status, 200);
    const auto retention = std::chrono::milliseconds(kWebhookRetention).count();
    EXPECT_GT(retention, WebhookOutbox::Schedule {}.horizon.count()) << "longer than the gateway redelivers";
    EXPECT_EQ(webhooks.pruneEvents(clock.nowMs() + retention - 1, 100), 0);
    EXPECT_EQ(webhooks.pruneEvents(clock.nowMs() + retention, 100), 1);
    EXPECT_EQ(scalar("SELECT count(*) FROM webhook_events"), 0);
}

TEST_F(CheckoutServiceTest, AWebhookForACheckoutTheReaperRemovedIsAcknowledgedAsANoOp)
{
    int attempts = 0;
    gateway.setWebhookSink([&](const std::string& body, const std::string& signature) {
        ++attempts;
        const OrderResponse response = webhooks.handle(body, signature);
        webhookResults.push_back(response.body);
        return response.status == 200;
    });
    EXPECT_EQ(checkout("k1").status, 201);
    // The webhook is held up (the server was unreachable) until the key row expired and was reaped.
    clock.advanceMs(std::chrono::milliseconds(kTtl).count());
    EXPECT_EQ(CheckoutReaper(service.database()).reapExpired(clock.nowMs(), 100), 1);
    EXPECT_EQ(deliver(), 1) << (webhookResults.empty() ? "" : webhookResults.back());
    EXPECT_NE(webhookResults.back().find(R"("result":"no-change")"), std::string::npos) << webhookResults.back();
    EXPECT_EQ(gateway.webhooks().pendingCount(), 0) << "no redelivery for days";
    EXPECT_EQ(text("SELECT status FROM orders"), "paid");

    const std::string unknown = R"({"id":"evt_u","type":"charge.succeeded","charge_id":"ch_9","reference":")" +
        service.gatewayKey(99) + R"(","amount":100})";
    EXPECT_EQ(webhooks.handle(unknown, sign(unknown)).status, 422) << "a row id never issued is still unknown";
}

TEST_F(CheckoutServiceTest, EachDatabaseHasItsOwnWebhookSecret)
{
    EXPECT_EQ(store.webhookSecret().rfind("whsec_", 0), 0u);
    EXPECT_GE(store.webhookSecret().size(), 6u + 48u);
    EXPECT_NE(store.webhookSecret(), "whsec_onceorder_demo");
    Store reopened(dir.file("server.db"), Synchronous::Full, 1);
    EXPECT_EQ(reopened.webhookSecret(), store.webhookSecret()) << "kept with the database";
    TempDir other;
    Store another(other.file("server.db"), Synchronous::Full, 1);
    EXPECT_NE(another.webhookSecret(), store.webhookSecret());
}

TEST_F(CheckoutServiceTest, RememberedEventsOfAnOlderDatabaseMoveIntoTheSourceKeyedTable)
{
    TempDir old;
    {
        SQLite::Database db(old.file("server.db"), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        db.exec("CREATE TABLE webhook_events (event_id TEXT PRIMARY KEY, type TEXT NOT NULL, charge_id TEXT, "
                "effect TEXT NOT NULL, received_at INTEGER NOT NULL);"
                "INSERT INTO webhook_events VALUES ('evt_1', 'charge.succeeded', 'ch_1', 'applied', 1)");
    }
    Store migrated(old.file("server.db"), Synchronous::Full, 1);
    auto db = migrated.lease();
    EXPECT_EQ(db->execAndGet("SELECT source || ' ' || event_id || ' ' || effect FROM webhook_events").getString(),
              "stub-gateway evt_1 applied");
    EXPECT_EQ(db->execAndGet("SELECT count(*) FROM sqlite_master WHERE name = 'webhook_events_before_source'").getInt(),
              0);
}

// Declines, but only after the order left "pending" by another way (as if a webhook or an operator came first).
class DeclineAfterTheOrderMoved final : public PaymentGateway
{
public:
    DeclineAfterTheOrderMoved(PaymentGateway& real, Store& store)
        : m_real(real)
        , m_store(store)
    {
    }
    ChargeResult charge(const std::string& key, long long amount, const std::string& method) override
    {
        auto db = m_store.lease();
        db->exec("UPDATE orders SET status = 'paid'");
        return m_real.charge(key, amount, method);
    }

private:
    PaymentGateway& m_real;
    Store& m_store;
};

TEST_F(CheckoutServiceTest, AFinishedKeyThatExpiredIsANewCheckoutWithItsOwnCharge)
{
    const OrderResponse first = checkout("k1");
    ASSERT_EQ(first.status, 201);
    clock.advanceMs(std::chrono::milliseconds(kTtl).count() - 1);
    EXPECT_TRUE(checkout("k1").replayed) << "remembered up to the TTL";
    clock.advanceMs(1);
    const OrderResponse late = checkout("k1");
    EXPECT_EQ(late.status, 201);
    EXPECT_FALSE(late.replayed) << "an expired finished key counts as absent";
    EXPECT_EQ(late.outcome, "created");
    EXPECT_EQ(orders(), 2);
    EXPECT_EQ(gateway.chargeCount(), 2) << "a new row id, so a new gateway key: charged again";
    EXPECT_EQ(scalar("SELECT count(*) FROM checkout_keys"), 1);
}

TEST_F(CheckoutServiceTest, AnUnfinishedKeyPastItsTtlIsKeptAndResumed)
{
    arm(FaultKind::CrashAfterOrderCreated);
    EXPECT_THROW(checkout("k1"), SimulatedCrash);
    clock.advanceMs(std::chrono::milliseconds(kTtl).count());
    const OrderResponse retry = checkout("k1");
    EXPECT_EQ(retry.status, 201) << retry.body;
    EXPECT_EQ(retry.outcome, "resumed") << "its order is still in flight: not forgotten";
    EXPECT_EQ(orders(), 1);
    EXPECT_EQ(gateway.chargeCount(), 1);
}

TEST_F(CheckoutServiceTest, ACartAlreadyOrderedUnderAnotherKeyIsAStoredRefusalWithoutACharge)
{
    const std::string cart =
        R"({"cart_id":"cart-1","items":[{"product":"kniha","quantity":1}],"payment_method":"card"})";
    const OrderResponse first = checkout("k1", cart);
    ASSERT_EQ(first.status, 201) << first.body;
    EXPECT_NE(first.body.find(R"("cart_id":"cart-1")"), std::string::npos) << first.body;
    const OrderResponse second = checkout("k2", cart);
    EXPECT_EQ(second.status, 422);
    EXPECT_NE(second.body.find("/problems/cart-already-ordered"), std::string::npos) << second.body;
    EXPECT_NE(second.body.find(R"("order_id":1)"), std::string::npos) << "names the order the cart became";
    EXPECT_EQ(orders(), 1);
    EXPECT_EQ(gateway.chargeCount(), 1) << "the refusal comes before the gateway";
    EXPECT_EQ(stock(), 99) << "the partial order was undone";
    const OrderResponse again = checkout("k2", cart);
    EXPECT_TRUE(again.replayed) << "a definitive refusal is stored";
    EXPECT_EQ(again.body, second.body);

    faults.setModes(TeachingModes {.businessKeyOff = true});
    EXPECT_EQ(checkout("k3", cart).status, 201) << "without the business key the same cart is ordered twice";
    EXPECT_EQ(orders(), 2);
}

TEST_F(CheckoutServiceTest, TheCompleterDuringAGatewayOutageLeavesTheRowUnlockedForLater)
{
    arm(FaultKind::CrashAfterOrderCreated);
    EXPECT_THROW(checkout("k1"), SimulatedCrash);
    clock.advanceMs(kLockTimeout.count());
    faults.arm(ArmedFault {FaultKind::GatewayFail, 1, 0, 1});
    EXPECT_EQ(CheckoutCompleter(service).completeAbandoned().completed, 0) << "the gateway is down: nothing finished";
    EXPECT_EQ(text("SELECT recovery_point FROM checkout_keys"), "order_created");
    EXPECT_EQ(scalar("SELECT locked_at IS NULL FROM checkout_keys"), 1) << "released, not held for 30 s";
    EXPECT_EQ(gateway.chargeCount(), 0);
    EXPECT_EQ(CheckoutCompleter(service).completeAbandoned().completed, 1)
        << "the next round, the gateway back, finishes it at once";
    EXPECT_EQ(gateway.chargeCount(), 1);
    EXPECT_EQ(text("SELECT status FROM orders"), "paid");
}

TEST_F(CheckoutServiceTest, ARetryThatTookOverFirstLeavesTheCompleterNothing)
{
    arm(FaultKind::CrashAfterCharge);
    EXPECT_THROW(checkout("k1"), SimulatedCrash);
    clock.advanceMs(kLockTimeout.count());
    const OrderResponse retry = checkout("k1");
    EXPECT_EQ(retry.status, 201);
    EXPECT_EQ(retry.outcome, "resumed");
    EXPECT_EQ(CheckoutCompleter(service).completeAbandoned().completed, 0) << "finished by the retry";
    EXPECT_EQ(gateway.chargeCount(), 1);
    EXPECT_EQ(payments(), 1);
}

TEST_F(CheckoutServiceTest, ADeclineForAnOrderNoLongerPendingChangesNeitherItsStatusNorTheStock)
{
    DeclineAfterTheOrderMoved moving(gateway, store);
    CheckoutService declining(store.sql(), store.instanceId(), moving, faults, clock, kTtl, kLockTimeout);
    declining.observePhases(std::make_unique<CrashPoints>(faults));
    arm(FaultKind::GatewayDecline);
    const OrderResponse declined = checkoutWith(declining, "k1", kOne);
    EXPECT_EQ(declined.status, 402) << "the gateway's answer is still the stored answer";
    EXPECT_EQ(text("SELECT status FROM orders"), "paid") << "not overwritten with payment_failed";
    EXPECT_EQ(stock(), 98) << "the stock goes back only with the change that cancels the order";
    EXPECT_EQ(scalar("SELECT count(*) FROM order_status_changes WHERE to_status = 'payment_failed'"), 0);
    EXPECT_TRUE(checkout("k1").replayed);
}

TEST_F(CheckoutServiceTest, AStorageErrorInALaterPhaseReleasesTheLockAndTheRetryChargesOnce)
{
    // The store has four connections; a failing write is set up on all of them with a temporary trigger, so the
    // phase that records the charge fails whichever connection it leases.
    onEveryConnection([](SQLite::Database& db) {
        db.exec("CREATE TEMP TRIGGER fail_recording BEFORE UPDATE OF recovery_point ON main.checkout_keys "
                "WHEN NEW.recovery_point = 'payment_charged' BEGIN SELECT RAISE(ABORT, 'disk full'); END");
    });
    const OrderResponse failed = checkout("k1");
    EXPECT_EQ(failed.status, 503);
    EXPECT_NE(failed.body.find("/problems/transient-failure"), std::string::npos) << failed.body;
    EXPECT_EQ(text("SELECT recovery_point FROM checkout_keys"), "order_created");
    EXPECT_EQ(scalar("SELECT locked_at IS NULL FROM checkout_keys"), 1) << "released: the retry need not wait 30 s";
    EXPECT_EQ(gateway.chargeCount(), 1) << "the gateway charged before the failure";

    onEveryConnection([](SQLite::Database& db) { db.exec("DROP TRIGGER temp.fail_recording"); });
    const OrderResponse retry = checkout("k1");
    EXPECT_EQ(retry.status, 201) << retry.body;
    EXPECT_EQ(retry.outcome, "resumed");
    EXPECT_EQ(gateway.chargeCount(), 1) << "the same gateway key: no second charge";
    EXPECT_EQ(payments(), 1);
}

TEST_F(CheckoutServiceTest, ABusyDatabaseAtTheKeyRowIsA503ThatLeavesNoRow)
{
    onEveryConnection([](SQLite::Database& db) { db.setBusyTimeout(0); }); // fail at once, not after 10 s
    SQLite::Database other(dir.file("server.db"), SQLite::OPEN_READWRITE);
    other.exec("BEGIN IMMEDIATE");
    const OrderResponse busy = checkout("k1");
    EXPECT_EQ(busy.status, 503);
    EXPECT_NE(busy.body.find("/problems/transient-failure"), std::string::npos) << busy.body;
    other.exec("ROLLBACK");
    EXPECT_EQ(scalar("SELECT count(*) FROM checkout_keys"), 0);
    EXPECT_EQ(checkout("k1").status, 201);
}

TEST_F(CheckoutServiceTest, AnUnparsableStoredRequestStopsOnlyItsOwnRow)
{
    arm(FaultKind::CrashAfterOrderCreated);
    EXPECT_THROW(checkout("broken"), SimulatedCrash);
    arm(FaultKind::CrashAfterOrderCreated);
    EXPECT_THROW(checkout("fine"), SimulatedCrash);
    {
        auto db = store.lease();
        db->exec("UPDATE checkout_keys SET request_json = '{\"product\":' WHERE idem_key = 'broken'");
    }
    clock.advanceMs(kLockTimeout.count());
    EXPECT_THROW(checkout("broken"), std::logic_error) << "a bug, not a transient failure: the HTTP layer says 500";
    clock.advanceMs(kLockTimeout.count());
    EXPECT_EQ(CheckoutCompleter(service).completeAbandoned().completed, 1)
        << "the completer skips the broken row and finishes the other";
    EXPECT_EQ(text("SELECT recovery_point FROM checkout_keys WHERE idem_key = 'fine'"), "finished");
    EXPECT_EQ(text("SELECT recovery_point FROM checkout_keys WHERE idem_key = 'broken'"), "order_created");
    EXPECT_EQ(gateway.chargeCount(), 1) << "nothing charged for a request we cannot read";
}
